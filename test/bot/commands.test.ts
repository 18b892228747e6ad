import { describe, expect, it } from "vitest";
import type { Api } from "grammy";
import { registerCommands } from "../../src/telegram/commands.js";
import { createTranslate } from "../../src/render/i18n.js";

describe("registerCommands", () => {
  it("sends both command lists at once: start-up waits one Bot API round trip for them, not two", async () => {
    const sent: { language?: string; finish: () => void }[] = [];
    const api = {
      setMyCommands: (_commands: unknown, other: { language_code?: string }) =>
        new Promise<true>((resolve) => sent.push({ ...(other.language_code ? { language: other.language_code } : {}), finish: () => resolve(true) })),
    } as unknown as Api;
    const done = registerCommands(api, createTranslate());
    await new Promise((r) => setImmediate(r));
    // Both requests are out before either is answered.
    expect(sent.map((s) => s.language ?? "default")).toEqual(["id", "default"]);
    for (const s of sent) s.finish();
    await done;
  });
});
