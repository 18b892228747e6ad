/**
 * An outcome the watcher saves moves the account's balance (a deposit credited, a failed purchase
 * refunded): the next confirm screen reads the balance again instead of the one it cached a moment
 * before, so a reseller told "Deposit masuk" can buy at once.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, pendingQris, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

it("a deposit's success notice clears the cached balance: /beli right after it sees the credited balance", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser({ languageCode: "id" });
  w.sandbox.setBalance(w.demoKey, 5_000);
  const dep = await pendingQris(w, u.chatId, "qris", 50_000);
  await u.sendCommand("beli", "S10 081234567890");
  expect(u.lastReply()).toContain("Saldo tidak cukup"); // the balance read (and cached) before the credit
  w.sandbox.payDeposit(dep.upstreamId!);
  w.sandbox.settleDeposit(dep.upstreamId!);

  await run(w, 6_000); // the watcher's first check: credited
  expect((await w.store.getTx(dep.refId))!.status).toBe("success");
  expect(noticesAbout(w, u.chatId, dep.refId).join("\n")).toContain("Deposit masuk");
  await u.sendCommand("beli", "S10 081234567890");
  expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
});

it("a purchase that fails is refunded: the next confirm screen sees the refund, not the balance cached while it was pending", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser({ languageCode: "id" });
  w.sandbox.setBalance(w.demoKey, 12_000);
  const bad = await pendingPrepaid(w, u.chatId, "081200000000"); // fails at the provider a few seconds later
  await u.sendCommand("beli", "S10 081234567890");
  expect(u.lastReply()).toContain("Saldo tidak cukup");

  await run(w, 6_000);
  expect((await w.store.getTx(bad.refId))!.status).toBe("failed");
  expect(w.sandbox.balance(w.demoKey)).toBe(12_000);
  await u.sendCommand("beli", "S10 081234567890");
  expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
});
