/**
 * zod for the bot's own schemas: `zod/mini`, the same zod 4 core without a method per check on every
 * schema, so the bundle keeps only what is used. The classic `zod` build is ~300 KB the bot compiled
 * and evaluated at every start (~25 ms). Import it as `import * as z from "./zod.js"` (a namespace
 * used only as `z.name` lets esbuild drop the rest). Mini sets no message locale: English, as classic does.
 */
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export * from "zod/mini";
