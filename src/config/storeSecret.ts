/**
 * STORE_SECRET, or one generated once into DATA_DIR (mode 0600) so encrypted keys survive restarts;
 * and the start-up check that the secret is the one the stored api keys were encrypted with. A
 * generated secret is written only once the store has taken it: a lost file must stay missing when
 * the store holds keys, or the next start would take the new file for the original.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../logging/logger.js";
import type { Store } from "../store/index.js";

export const GENERATED_SECRET_FILE = "store-secret";
const MIN_SECRET = 16;

/** The secret cannot be used: start-up stops with this message (it never contains the secret). */
export class StoreSecretError extends Error {
  override readonly name = "StoreSecretError";
}

export interface ResolvedSecret {
  secret: string;
  /** True when the secret was generated just now (written to `file` once verifyStoreSecret accepts it). */
  generated: boolean;
  /** The secret file, when the secret comes from one (STORE_SECRET unset). */
  file?: string;
}

export async function resolveStoreSecret(configured: string | undefined, dataDir: string): Promise<ResolvedSecret> {
  if (configured) return { secret: configured, generated: false };
  const file = join(dataDir, GENERATED_SECRET_FILE);
  let existing: string | undefined;
  try {
    existing = (await readFile(file, "utf8")).trim();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new StoreSecretError(`The store secret file ${file} cannot be read (${code}). Check its owner and mode (0600), or set STORE_SECRET.`);
  }
  if (existing !== undefined) {
    if (existing.length >= MIN_SECRET) return { secret: existing, generated: false, file };
    throw new StoreSecretError(
      `The store secret file ${file} is damaged: it holds ${existing.length} characters, a secret has at least ${MIN_SECRET}. ` +
        `Restore it from your backup (or set STORE_SECRET to the original secret) and start again. ` +
        `If the secret is lost for good, move the file away and start with STORE_SECRET_RESET=1: a new secret is generated, ` +
        `the stored api keys it cannot read are removed and their chats are asked to link again.`,
    );
  }
  return { secret: randomBytes(32).toString("base64url"), generated: true, file };
}

/** Writes a secret generated just now into its file, the store having taken it. */
async function keepGenerated(source: ResolvedSecret, dataDir: string, logger: Logger): Promise<void> {
  if (!source.generated || !source.file) return;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    // "wx": never overwrite a secret another process wrote meanwhile; losing it would orphan every key.
    await writeFile(source.file, `${source.secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new StoreSecretError(`Could not create the store secret file ${source.file} (${code}). If another copy of the bot is starting in ${dataDir}, stop it and start again.`);
  }
  await chmod(source.file, 0o600);
  logger.warn({ file: source.file }, "STORE_SECRET was not set: generated one into DATA_DIR (keep this file; back it up)");
}

/**
 * Start-up check: a secret that does not match the stored keys would make the bot fail for every
 * linked chat and refuse every new link. Refuses to go on (StoreSecretError, the store closed)
 * unless the operator set STORE_SECRET_RESET; then the unreadable keys are removed and their chats
 * returned, to be asked to link again. A file store without keys takes the new secret silently; a
 * PostgreSQL store is shared by processes, so there a different secret is refused even without keys.
 */
export async function verifyStoreSecret(
  store: Store,
  source: ResolvedSecret,
  opts: { reset: boolean; dataDir: string; logger: Logger },
): Promise<number[]> {
  const keep = () =>
    keepGenerated(source, opts.dataDir, opts.logger).catch(async (e: unknown) => {
      await store.close();
      throw e;
    });
  if (store.secretMatches()) {
    await keep();
    if (opts.reset) opts.logger.warn("STORE_SECRET_RESET is set but the store secret matches: nothing to reset. Remove the setting.");
    return [];
  }
  const keys = await store.storedKeyCount();
  // A database is shared by every process on it: a second process with another secret would take it
  // over while the first goes on with its own, and the keys would split between two secrets.
  const shared = store.stats().kind === "postgres";
  if (shared && keys === 0 && !opts.reset) {
    await store.close();
    throw new StoreSecretError(
      "This PostgreSQL store was set up with another store secret. Every bot process on one database needs the same STORE_SECRET: " +
        "set it to the first process's secret and start again (or, if no process uses the database yet, start once with STORE_SECRET_RESET=1).",
    );
  }
  if (keys === 0 || opts.reset) {
    await keep();
    const lost = await store.resetSecret();
    await store.flush();
    if (keys > 0) {
      opts.logger.warn({ removed: lost.length }, "STORE_SECRET_RESET: api keys the new store secret cannot read were removed; their chats are asked to link again. Remove the setting now.");
    }
    return lost;
  }
  await store.close();
  const fileHint = join(opts.dataDir, GENERATED_SECRET_FILE);
  const why = !source.file
    ? "STORE_SECRET is set, but not to the secret these keys were encrypted with."
    : source.generated
      ? `STORE_SECRET is not set and ${source.file} was missing, so the secret these keys were encrypted with is not available.`
      : `STORE_SECRET is not set and ${source.file} holds a different secret than the one these keys were encrypted with (was the file replaced?).`;
  throw new StoreSecretError(
    `The store secret does not match: ${keys} linked api key${keys === 1 ? "" : "s"} in ${shared ? "the PostgreSQL store" : opts.dataDir} cannot be read. ${why} ` +
      `To keep the keys, put the original secret back (STORE_SECRET, or the file ${fileHint} from your backup) and start again. ` +
      `If it is lost for good, start once with STORE_SECRET_RESET=1: the unreadable keys are removed (chats, history and settings stay) ` +
      `and each of those chats is asked to link its api key again.`,
  );
}
