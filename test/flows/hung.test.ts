/** A hung provider must not hold the chat: /batal, /menu and Cancel get through while a read waits. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { until } from "../support/settle.js";
import type { FakeUser } from "../support/chat.js";
import { pendingPrepaid } from "../jobs/support.js";

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

describe("a slow provider", () => {
  /** The provider's profile answer waits until the test releases it. */
  function holdProfile(w: World): { release: () => void } {
    return { release: w.sandbox.holdNext("/get_profile") };
  }

  it("/saldo shows typing at once, a 'checking' line after 1.5 s, then the answer in its place", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const held = holdProfile(w);
    const asked = u.sendCommand("saldo");
    await vi.waitFor(() => expect(w.fake.callsOf("sendChatAction").map((c) => c.payload.action)).toEqual(["typing"]));
    expect(u.messages().filter((m) => m.from === "bot" && !m.deleted)).toHaveLength(0);
    await w.clock.advance(1500);
    await vi.waitFor(() => expect(u.lastReply()).toContain("Mengecek ke penyedia"));
    held.release();
    await asked;
    const shown = u.messages().filter((m) => m.from === "bot" && !m.deleted);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.text).toContain("Saldo");
    expect(shown[0]!.text).not.toContain("Mengecek ke penyedia");
  });

  /**
   * While `endpoint`'s answer is held: typing at once, the "checking" line after 1.5 s on the injected
   * clock, and that line gone once `act` has answered.
   */
  async function signsWhileHeld(u: FakeUser, endpoint: string, act: () => Promise<unknown>): Promise<void> {
    const typingBefore = w.fake.callsOf("sendChatAction").length;
    const callsBefore = w.sandbox.calls(endpoint).length;
    const release = w.sandbox.holdNext(endpoint);
    const done = act();
    await vi.waitFor(() => expect(w.sandbox.calls(endpoint)).toHaveLength(callsBefore + 1));
    expect(w.fake.callsOf("sendChatAction").slice(typingBefore).map((c) => c.payload.action)).toContain("typing");
    expect(u.lastReply() ?? "").not.toContain("Mengecek ke penyedia");
    await w.clock.advance(1500);
    await vi.waitFor(() => expect(u.lastReply()).toContain("Mengecek ke penyedia"));
    release();
    await done;
    expect(u.messages().filter((m) => m.from === "bot" && !m.deleted && String(m.text).includes("Mengecek ke penyedia"))).toEqual([]);
  }

  it("the bill inquiry shows the signs, then the bill's confirm screen", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    await signsWhileHeld(u, "/transaksi/tagihan", () => u.sendText("530112340002"));
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
  });

  it("the confirm screen's balance read shows the signs, and the screen carries the balance", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    w.deps.lists.forgetProfile(w.demoKey);
    await signsWhileHeld(u, "/get_profile", () => u.sendText("530112340002"));
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    expect(u.lastReply()).toContain("Saldo Anda: Rp");
  });

  it("the transfer's confirm screen reads the balance with the signs too (a flow's last step)", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("transfer");
    await u.sendText("bca");
    await u.pressButton(/BCA/);
    await u.sendText("1234567890");
    await u.sendText("50000");
    w.deps.lists.forgetProfile(w.demoKey);
    await signsWhileHeld(u, "/get_profile", () => u.pressButton("⏭ Lewati"));
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    await u.pressButton(/Konfirmasi/);
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(1);
  });

  it("the top-up flow's price list read (after the target is typed) shows the signs", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10");
    w.deps.lists.invalidate();
    await signsWhileHeld(u, "/layanan/price_list", () => u.sendText("081234567890"));
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
  });

  it("the Confirm press shows the signs while the create call waits", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    await signsWhileHeld(u, "/transaksi/create", () => u.pressButton(/Konfirmasi/));
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);
    expect(u.lastReply()).toMatch(/Diproses|Berhasil/);
  });

  it("/status of an open transaction shows the signs while the provider is asked", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await signsWhileHeld(u, "/transaksi/status", () => u.sendCommand("status", tx.refId));
    expect(u.lastReply()).toContain(tx.refId);
  });

  it("a confirm screen says when the balance could not be read", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.fault("/get_profile", "html502", 5);
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    expect(u.lastReply()).toContain("Saldo Anda: tidak terbaca");
  });
});
