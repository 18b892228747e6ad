/**
 * The bundle's entry (scripts/build.mjs bundles it as dist/bot.cjs, which dist/main.js loads): starts the
 * store's key derivation (scrypt, ~50 ms on the thread pool) before the rest of the bot is evaluated, then
 * runs src/run.ts. FileStore.open takes that key when its secret is the same one; any other
 * secret is derived as before. Only node built-ins are evaluated before the derivation starts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deriveKeyEarly } from "./store/crypto.js";
import { GENERATED_SECRET_FILE } from "./config/storeSecret.js";
import type { LaunchInfo } from "./run.js";

function earlySecret(): string | undefined {
  try {
    process.loadEnvFile(); // as run.ts does: real environment variables win over a .env
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

/** Starts the bot: the key derivation first, then the rest of the bot's code is evaluated and run. */
export function boot(launch: LaunchInfo): void {
  const secret = earlySecret();
  if (secret) deriveKeyEarly(secret);
  void import("./run.js").then(({ runBot }) => runBot(launch));
}

/** Evaluates every module the bot loads at start and runs nothing: what the build's compile cache records (launch.ts). */
export async function evaluateOnly(): Promise<void> {
  await import("./run.js");
}
