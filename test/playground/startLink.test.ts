/** Which links start this bot, as Telegram reads them: its t.me links and tg://resolve, with a valid payload. */
import { expect, it } from "vitest";
import { startPayload } from "../../src/playground/startLink.js";

it.each([
  ["https://t.me/ppob_test_bot?start=staff_Ab-1", "staff_Ab-1"],
  ["t.me/PPOB_Test_Bot?start=abc", "abc"],
  ["https://telegram.me/ppob_test_bot/?start=abc", "abc"],
  ["tg://resolve?domain=ppob_test_bot&start=abc", "abc"],
  ["https://t.me/other_bot?start=abc", undefined],
  ["https://t.me/ppob_test_bot", undefined],
  ["https://t.me/ppob_test_bot?start=has space", undefined],
  [`https://t.me/ppob_test_bot?start=${"x".repeat(65)}`, undefined],
  ["https://evil.example/ppob_test_bot?start=abc", undefined],
  ["not a url at all", undefined],
])("%s -> %s", (url, payload) => {
  expect(startPayload(url, "ppob_test_bot")).toBe(payload);
});
