/* global process */
// Preloaded by test/bot/process.test.ts (`node --import`): at exit, every file require() loaded, as JSON, to $LIST_REQUIRES_TO.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const { cache } = createRequire(import.meta.url);
process.on("exit", () => writeFileSync(process.env.LIST_REQUIRES_TO, JSON.stringify(Object.keys(cache))));
