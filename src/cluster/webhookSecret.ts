/**
 * The Telegram webhook's secret token on the file store: generated once into DATA_DIR (0600), the same
 * for every start. On PostgreSQL it lives in the database (pgShared.ts).
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const WEBHOOK_SECRET_FILE = "webhook-secret";

export async function resolveWebhookSecret(dataDir: string): Promise<string> {
  const file = join(dataDir, WEBHOOK_SECRET_FILE);
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (/^[A-Za-z0-9_-]{32,256}$/.test(existing)) return existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}
