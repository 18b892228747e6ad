import { afterEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
afterEach(() => w?.close());

// Names of built-in Object members, in every place callback data names something.
const FORGED = [
  "menu:__proto__",
  "menu:valueOf",
  "menu:constructor",
  "menu:toString",
  "menu:hasOwnProperty",
  "lang:toString",
  "lang:__proto__",
  "lang:constructor",
  "pr:h:g:__proto__:0",
  "pr:h:p:constructor:valueOf:0",
  "pr:b:i:__proto__",
  "pr:h:toString",
  "pr:__proto__:c",
  "pr:h:s:constructor:toString",
  "pr:h:s:0:constructor",
  "pr:b:s:0:__proto__ valueof",
  "f:c:constructor",
  "f:p:__proto__",
  "f:toString",
  "st:__proto__",
  "ok:constructor",
  "no:valueOf",
  "rt:toString",
  "dp:x:__proto__",
  "dp:i:constructor",
  "dp:ic:valueOf",
  "hd:toString",
  "hp:constructor",
  "bc:go:__proto__",
  "cancel:toString",
  "__proto__",
  "constructor",
];

async function pressForged(u: FakeUser, data: string) {
  await w.bot.api.sendMessage(u.chatId, "forged", { reply_markup: { inline_keyboard: [[{ text: "forged", callback_data: data }]] } });
  return u.pressButton("forged");
}

describe("forged callback data", () => {
  it.each([
    ["outside a flow", false],
    ["while a flow waits", true],
  ])("is answered exactly once and never errors (%s)", async (_name, inFlow) => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    for (const data of FORGED) {
      if (inFlow) await u.sendCommand("transfer");
      const calls = await pressForged(u, data);
      const answers = calls.filter((c) => c.method === "answerCallbackQuery");
      expect(answers, data).toHaveLength(1);
      const texts = calls.map((c) => String(c.payload.text ?? c.payload.caption ?? ""));
      expect(texts.some((t) => t.includes("Sorry, something went wrong")), data).toBe(false);
    }
  });
});
