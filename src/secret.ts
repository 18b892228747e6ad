/** STORE_SECRET, or one generated once into DATA_DIR (mode 0600) so encrypted keys survive restarts. */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const GENERATED_SECRET_FILE = "store-secret";

export async function resolveStoreSecret(
  configured: string | undefined,
  dataDir: string,
): Promise<{ secret: string; generated: boolean; file?: string }> {
  if (configured) return { secret: configured, generated: false };
  const file = join(dataDir, GENERATED_SECRET_FILE);
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (existing.length >= 16) return { secret: existing, generated: false, file };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  // "wx": never overwrite a secret another process wrote meanwhile; losing it would orphan every key.
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  await chmod(file, 0o600);
  return { secret, generated: true, file };
}
