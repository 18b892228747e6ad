/**
 * The library versions our forks were read against (the comment at the top of each names them):
 * an upgrade fails here, so someone re-reads the library and drops a fork it made unneeded.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

function majorMinor(pkg: string): string {
  const { version } = JSON.parse(readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url), "utf8")) as { version: string };
  return version.split(".").slice(0, 2).join(".");
}

describe("forks pinned to the library version they mirror", () => {
  it("middlewares/sequentialize.ts and telegram/polling.ts: @grammyjs/runner 2.0", () => {
    expect(majorMinor("@grammyjs/runner")).toBe("2.0");
  });
  it("telegram/pacer.ts: grammY 1.46 and @grammyjs/auto-retry 2.0", () => {
    expect(majorMinor("grammy")).toBe("1.46");
    expect(majorMinor("@grammyjs/auto-retry")).toBe("2.0");
  });
});
