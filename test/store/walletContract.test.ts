/**
 * The wallets' guarantees (docs/wallets.md), against both stores: a balance is the sum of its entries,
 * an entry posts once, a record holds its price in the same write as its status, a failure releases it
 * in that write, and no write takes a wallet's available below zero, also when two race for it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import type { NewTx, NewWalletEntry, Store } from "../../src/store/api.js";
import { WalletShortError } from "../../src/store/errors.js";
import type { WalletPart } from "../../src/store/index.js";
import { closeOpened, stores } from "./places.js";

afterEach(closeOpened);

const OWNER = 100;
const ANDI = 201;
const BUDI = 202;

function credit(ref: string, wallet: number, amount: number, extra: Partial<NewWalletEntry> = {}): NewWalletEntry {
  return { ref, wallet, owner: OWNER, amount, kind: "adjust", reason: "cash", by: OWNER, ...extra };
}

function purchase(refId: string, price: number, wallet = ANDI, state: WalletPart["state"] = "draft"): NewTx {
  return { refId, chatId: OWNER, by: wallet, kind: "prepaid", status: "draft", amount: 9_000, code: "S10", target: "0812", wallet: { chat: wallet, price, state } };
}

async function available(s: Store, chat: number): Promise<number> {
  const w = await s.wallet(chat);
  return w.balance - w.held;
}

/** Moves a draft to sending with its wallet part held: the claim's one write. */
async function hold(s: Store, refId: string) {
  const tx = (await s.getTx(refId))!;
  return s.transitionTx(refId, ["draft"], { status: "sending", wallet: { ...tx.wallet!, state: "held" } });
}

describe.each(stores)("Wallet contract: $name", ({ place, skip }) => {
  it.skipIf(skip)("entries: the balance is their sum, newest first with a seq per wallet, a ref posts once, pages go back", async () => {
    const clock = new ManualClock(5_000);
    const s = await (await place()).open({ clock });
    expect(await s.wallet(ANDI)).toEqual({ chat: ANDI, owner: 0, balance: 0, held: 0 });
    const first = await s.postEntries([credit("A1", ANDI, 50_000), credit("B1", BUDI, 7_000)]);
    expect(first.posted.map((e) => [e.ref, e.seq, e.at])).toEqual([
      ["A1", 1, 5_000],
      ["B1", 1, 5_000],
    ]);
    await clock.advance(10);
    const again = await s.postEntries([credit("A1", ANDI, 50_000), credit("A2", ANDI, -2_000, { reason: "correction" })]);
    expect(again.skipped).toEqual(["A1"]);
    expect(again.posted.map((e) => e.ref)).toEqual(["A2"]);
    expect(await s.wallet(ANDI)).toEqual({ chat: ANDI, owner: OWNER, balance: 48_000, held: 0 });
    expect((await s.walletsOf(OWNER)).map((w) => [w.chat, w.balance]).sort()).toEqual([
      [ANDI, 48_000],
      [BUDI, 7_000],
    ]);
    for (let i = 3; i <= 7; i++) await s.postEntries([credit(`A${i}`, ANDI, 1_000)]);
    const page1 = await s.walletEntries(ANDI, { limit: 3 });
    expect(page1.map((e) => e.ref)).toEqual(["A7", "A6", "A5"]);
    expect((await s.walletEntries(ANDI, { beforeSeq: page1[2]!.seq, limit: 3 })).map((e) => e.ref)).toEqual(["A4", "A3", "A2"]);
    expect(await s.walletEntry("A2")).toMatchObject({ amount: -2_000, reason: "correction", seq: 2, balance: 48_000 });
    expect(page1.map((e) => e.balance)).toEqual([53_000, 52_000, 51_000]);
    expect(await s.walletEntry("nope")).toBeUndefined();
  });

  it.skipIf(skip)("a debit beyond what is available is refused, and a post is all or none", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.postEntries([credit("A1", ANDI, 10_000)]);
    const short = await s.postEntries([credit("B1", BUDI, 5_000), credit("A2", ANDI, -10_001)]).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(WalletShortError);
    expect(short).toMatchObject({ chat: ANDI, available: 10_000, needed: 10_001 });
    expect(await s.wallet(BUDI)).toMatchObject({ balance: 0 });
    expect(await s.walletEntry("B1")).toBeUndefined();
    await expect(s.postEntries([credit("A3", ANDI, 0)])).rejects.toBeInstanceOf(TypeError);
    // A commission already spent is still taken back when its sale is reversed (docs/wallets.md rule 6).
    await s.postEntries([{ ...credit("A4", ANDI, -12_000), kind: "refund" }]);
    expect(await s.wallet(ANDI)).toMatchObject({ balance: -2_000 });
  });

  it.skipIf(skip)("a record holds its price in the claim's own write; one that would hold more than is available stays a draft", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.postEntries([credit("A1", ANDI, 15_000)]);
    await s.createTx(purchase("P1", 10_000));
    await s.createTx(purchase("P2", 6_000));
    // A draft holds nothing.
    expect(await available(s, ANDI)).toBe(15_000);
    expect(await hold(s, "P1")).toMatchObject({ status: "sending", wallet: { state: "held", price: 10_000 } });
    expect(await s.wallet(ANDI)).toMatchObject({ balance: 15_000, held: 10_000 });
    expect(await hold(s, "P2")).toBeUndefined();
    expect(await s.getTx("P2")).toMatchObject({ status: "draft", wallet: { state: "draft" } });
    // Held money cannot be taken by hand either.
    await expect(s.postEntries([credit("A2", ANDI, -5_001)])).rejects.toBeInstanceOf(WalletShortError);
    // Created already held (a payout request): refused when short, nothing saved.
    await expect(s.createTx(purchase("T1", 5_001, ANDI, "held"))).rejects.toBeInstanceOf(WalletShortError);
    expect(await s.getTx("T1")).toBeUndefined();
    await s.createTx(purchase("T2", 5_000, ANDI, "held"));
    expect(await available(s, ANDI)).toBe(0);
  });

  it.skipIf(skip)("posts racing on one wallet get one seq each and a running balance in order", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await Promise.all(Array.from({ length: 8 }, (_, i) => s.postEntries([credit(`C${i}`, ANDI, 1_000)])));
    const entries = (await s.walletEntries(ANDI, { limit: 20 })).reverse();
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(entries.map((e) => e.balance)).toEqual([1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000]);
  });

  it.skipIf(skip)("two records racing for the last rupiah: one holds it, the other is refused", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.postEntries([credit("A1", ANDI, 10_000)]);
    for (const ref of ["R1", "R2", "R3", "R4"]) await s.createTx(purchase(ref, 10_000));
    const won = await Promise.all(["R1", "R2", "R3", "R4"].map((ref) => hold(s, ref)));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await s.wallet(ANDI)).toMatchObject({ balance: 10_000, held: 10_000 });
  });

  it.skipIf(skip)("claims and releases racing on one wallet: held is the sum of the held records, available never below zero", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.postEntries([credit("A1", ANDI, 50_000)]);
    const held = ["H1", "H2", "H3"];
    const fresh = Array.from({ length: 12 }, (_, i) => `N${i}`);
    for (const ref of [...held, ...fresh]) await s.createTx(purchase(ref, 10_000));
    for (const ref of held) await hold(s, ref);
    // 20,000 available: two of the new claims can win, more as the releases land first.
    const [won] = await Promise.all([
      Promise.all(fresh.map((ref) => hold(s, ref))),
      Promise.all(held.map((ref) => s.transitionTx(ref, ["sending"], { status: "failed" }))),
    ]);
    const winners = won.filter(Boolean).length;
    expect(winners).toBeGreaterThanOrEqual(2);
    expect(winners).toBeLessThanOrEqual(5);
    const records = await Promise.all([...held, ...fresh].map((ref) => s.getTx(ref)));
    expect(records.filter((t) => t!.wallet!.state === "held")).toHaveLength(winners);
    expect(await s.wallet(ANDI)).toMatchObject({ balance: 50_000, held: 10_000 * winners });
  });

  it.skipIf(skip)("a failure releases the hold in its own write; unknown keeps it; success stays held until posted", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.postEntries([credit("A1", ANDI, 30_000)]);
    for (const ref of ["F1", "U1", "S1"]) {
      await s.createTx(purchase(ref, 10_000));
      await hold(s, ref);
    }
    expect(await s.transitionTx("F1", ["sending"], { status: "failed" })).toMatchObject({ wallet: { state: "released" } });
    await s.transitionTx("U1", ["sending"], { status: "unknown" });
    await s.transitionTx("S1", ["sending"], { status: "success" });
    expect(await s.wallet(ANDI)).toMatchObject({ balance: 30_000, held: 20_000 });
    await s.postEntries([{ ref: "S1:d", wallet: ANDI, owner: OWNER, amount: -10_000, kind: "purchase", txRef: "S1" }]);
    // A paid deposit whose credit is not posted yet is owed too; a pending one is not.
    await s.createTx({ refId: "D1", chatId: OWNER, by: BUDI, kind: "deposit", status: "pending", amount: 50_000, code: "qris", wallet: { chat: BUDI, price: 0, state: "draft", credit: 49_650 } });
    expect((await s.unsettledTxs()).map((t) => t.refId).sort()).toEqual(["S1", "U1"]);
    await s.transitionTx("D1", ["pending"], { status: "processing" });
    expect((await s.unsettledTxs()).map((t) => t.refId).sort()).toEqual(["D1", "S1", "U1"]);
    await s.postEntries([{ ref: "D1:in", wallet: BUDI, owner: OWNER, amount: 49_650, kind: "deposit", txRef: "D1" }]);
    await s.updateTx("D1", { wallet: { chat: BUDI, price: 0, state: "posted", credit: 49_650 } });
    expect((await s.unsettledTxs()).map((t) => t.refId).sort()).toEqual(["S1", "U1"]);
    // Between the post and the mark: debited and held, so available reads low, never high.
    expect(await available(s, ANDI)).toBe(0);
    const s1 = (await s.getTx("S1"))!;
    await s.updateTx("S1", { wallet: { ...s1.wallet!, state: "posted" } });
    expect(await s.wallet(ANDI)).toMatchObject({ balance: 20_000, held: 10_000 });
    // A posted or released part never moves again, and a wallet part is never removed.
    await expect(s.updateTx("S1", { wallet: { ...s1.wallet!, state: "held" } })).rejects.toBeInstanceOf(TypeError);
    await expect(s.updateTx("F1", { wallet: undefined })).rejects.toBeInstanceOf(TypeError);
    expect(await s.wallet(ANDI)).toMatchObject({ balance: 20_000, held: 10_000 });
  });

  it.skipIf(skip)("balances, entries and holds are the same after the store is opened again", async () => {
    const where = await place();
    const clock = new ManualClock();
    const s = await where.open({ clock });
    await s.postEntries([credit("A1", ANDI, 25_000), credit("B1", BUDI, 1_000)]);
    await s.createTx(purchase("P1", 10_000));
    await hold(s, "P1");
    await s.flushTx("P1");
    await s.close();
    const again = await where.open({ clock });
    expect(await again.wallet(ANDI)).toEqual({ chat: ANDI, owner: OWNER, balance: 25_000, held: 10_000 });
    expect((await again.walletEntries(BUDI)).map((e) => e.ref)).toEqual(["B1"]);
    expect(await again.postEntries([credit("A1", ANDI, 25_000)])).toMatchObject({ posted: [], skipped: ["A1"] });
    await expect(again.postEntries([credit("A2", ANDI, -15_001)])).rejects.toBeInstanceOf(WalletShortError);
  });
});
