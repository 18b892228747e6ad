/** A hung provider must not hold the chat: /batal, /menu and Cancel get through while a read waits. */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { until } from "../support/settle.js";

const PRICE_LIST = "/layanan/price_list";
let w: World;
afterEach(() => w?.close());

it("/batal, /menu and Cancel are answered while a read to a hung provider is still waiting", async () => {
  w = await makeWorld({ upstreamTimeoutMs: 2000 });
  const u = await w.linkedUser({ languageCode: "en" });
  w.sandbox.fault(PRICE_LIST, "timeout");
  let slowDone = false;
  const slow = u.sendCommand("prices").then(() => (slowDone = true));
  await until(() => w.sandbox.calls(PRICE_LIST).length > 0, { tries: 1000 });
  await u.sendCommand("batal");
  expect(slowDone).toBe(false);
  expect(u.lastReply()).toMatch(/Nothing is running|Cancelled/i);
  await u.sendCommand("menu");
  expect(slowDone).toBe(false);
  expect(u.buttons().length).toBeGreaterThan(0);
  await slow;
  expect(u.lastReply()).toMatch(/provider|server/i);
});

it("Cancel on a flow's prompt gets through while the bill inquiry (a read) hangs", async () => {
  w = await makeWorld({ upstreamTimeoutMs: 2000 });
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("tagihan");
  await u.pressButton("PLN Pascabayar");
  const prompt = u.sentMessageIds.at(-1)!;
  w.sandbox.fault("/transaksi/tagihan", "timeout");
  let slowDone = false;
  const slow = u.sendText("530112340002").then(() => (slowDone = true));
  await until(() => w.sandbox.calls("/transaksi/tagihan").length > 0, { tries: 1000 }); // the read is out and hangs
  await u.pressButton(/Cancel/, { messageId: prompt });
  expect(slowDone).toBe(false);
  expect(u.lastReply()).toContain("Cancelled");
  await slow;
  // The overtaken flow says nothing more after "Cancelled" and is really over.
  expect(u.lastReply()).toContain("Cancelled");
  await u.sendCommand("batal");
  expect(u.lastReply()).toContain("Nothing is running");
});

