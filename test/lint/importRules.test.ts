/**
 * The import rules (.dependency-cruiser.mjs, run by `npm run lint`) fail a change that breaks them, naming
 * the rule and the file. Probe files in a temporary folder laid out like src/, cruised with the real
 * rule set: the rules match paths, so src/domain/probe.ts there is src/domain/ here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";

const CONFIG = join(import.meta.dirname, "../../.dependency-cruiser.mjs");

const PROBES: Record<string, string> = {
  "src/bot/context.ts": "export const botContext = 1;\n",
  "src/domain/probe.ts": 'import { botContext } from "../bot/context.js";\nexport const probe = botContext;\n',
  // A cycle through type-only imports alone still counts.
  "src/domain/cycleA.ts": 'import type { B } from "./cycleB.js";\nexport interface A { b?: B }\n',
  "src/domain/cycleB.ts": 'import type { A } from "./cycleA.js";\nexport interface B { a?: A }\n',
  "src/money/pay.ts": 'import { Bot } from "grammy";\nimport { html } from "../render/format.js";\nexport const pay = [Bot, html];\n',
  "src/render/format.ts": "export const html = (s: string) => s;\n",
};

let dir: string;
let report: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "import-rules-"));
  for (const [file, text] of Object.entries(PROBES)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const options = await extractDepcruiseOptions(CONFIG);
  const { tsConfig: _tsConfig, ...rest } = options;
  const result = await cruise(["src"], { ...rest, baseDir: dir, outputType: "err" });
  report = String(result.output);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("import rules", () => {
  it("domain/ importing bot/ fails, naming the rule and the file", () => {
    expect(report).toContain("error lower-rooms-no-bot-or-jobs: src/domain/probe.ts → src/bot/context.ts");
  });

  it("a cycle of type-only imports fails", () => {
    expect(report).toMatch(/error no-circular: src\/domain\/cycle[AB]\.ts →/);
  });

  it("money/ may import neither grammY nor render/", () => {
    expect(report).toContain("error money-knows-no-grammy: src/money/pay.ts → grammy");
    expect(report).toContain("error money-knows-no-grammy: src/money/pay.ts → src/render/format.ts");
  });

  it("reports those four and nothing else", () => {
    expect(report).toContain("x 4 dependency violations (4 errors, 0 warnings)");
  });
});
