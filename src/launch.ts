/**
 * dist/main.js, what `npm start` runs: the bot's bundle (dist/bot.cjs) compiled with the V8 code cache the
 * build wrote beside it, so a start does not compile the bundle again (bench/startup.ts). The build's last
 * step runs this with --write-code-cache: it evaluates what a start evaluates and writes that cache.
 */
import { join } from "node:path";
import { loadWithCodeCache } from "./codeCache.js";
import type { LaunchInfo } from "./run.js";

/** What src/boot.ts exports. */
interface Bundle {
  boot(launch: LaunchInfo): void;
  evaluateOnly(): Promise<void>;
}

const bot = loadWithCodeCache<Bundle>(join(import.meta.dirname, "bot.cjs"));
if (process.argv[2] === "--write-code-cache") {
  await bot.exports.evaluateOnly();
  bot.writeCache();
} else {
  bot.exports.boot({ codeCache: bot.cache });
}
