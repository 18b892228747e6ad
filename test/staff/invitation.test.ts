/** The owner's invitation is a link in the text and a button the invited person taps (the message forwarded). */
import { afterEach, expect, it } from "vitest";
import { FAKE_BOT_INFO } from "../../src/playground/botInfo.js";
import { makeWorld, type World } from "../support/world.js";
import { inviteToken } from "./support.js";

let w: World;
afterEach(() => w?.close());

it("the invitation carries a URL button to the bot's start link with its token", async () => {
  w = await makeWorld();
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
  const token = await inviteToken(rina, "cashier");
  const button = rina.findButton(/Gabung sebagai kasir/)?.button;
  expect(button).toEqual({ text: expect.stringContaining("Gabung sebagai kasir"), url: `https://t.me/${FAKE_BOT_INFO.username}?start=staff_${token}` });
});
