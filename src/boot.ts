/**
 * What `node dist/main.js` runs first (scripts/build.mjs bundles it as main.js): starts the store's key
 * derivation (scrypt, ~50 ms on the thread pool) before the rest of the bot is compiled and evaluated
 * (~100 ms), then runs src/main.ts. FileStore.open takes that key when its secret is the same one; any other
 * secret is derived as before. Only node built-ins here, so this part loads in a few milliseconds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deriveKeyEarly } from "./store/crypto.js";
import { GENERATED_SECRET_FILE } from "./secret.js";

function earlySecret(): string | undefined {
  try {
    process.loadEnvFile(); // as main.ts does: real environment variables win over a .env
  } catch {
    // no .env
  }
  if (!process.env.BOT_TOKEN?.trim()) return undefined; // the playground has its own store
  const configured = process.env.STORE_SECRET?.trim();
  if (configured) return configured;
  try {
    return readFileSync(join(process.env.DATA_DIR?.trim() || "./data", GENERATED_SECRET_FILE), "utf8").trim();
  } catch {
    return undefined; // none yet: resolveStoreSecret generates it
  }
}

const secret = earlySecret();
if (secret) deriveKeyEarly(secret);
await import("./main.js");
