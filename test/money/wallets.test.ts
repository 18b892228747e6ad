/**
 * A purchase paid from a downline's wallet through the one money engine (docs/wallets.md): the claim
 * holds the price in its own write or sends nothing, the outcome settles the wallet exactly once
 * (debit and commissions on success, nothing on failure, the hold kept while unknown), a paid deposit
 * is credited once, and a stop between an outcome and its entries is settled at the next start.
 */
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { TxEvents } from "../../src/domain/events.js";
import { Ledger } from "../../src/domain/ledger.js";
import { silentLogger } from "../../src/logging/logger.js";
import { MoneyEngine, type Create } from "../../src/money/createOnce.js";
import { Wallets } from "../../src/money/wallets.js";
import { FileStore } from "../../src/store/file/fileStore.js";
import type { Store, TxRecord } from "../../src/store/index.js";
import { ManualClock } from "../../src/tools/clock.js";
import { UpstreamRejected, UpstreamUnavailable } from "../../src/upstream/errors.js";
import { openStore, SECRET, tempDir } from "../store/helpers.js";

const OWNER = 100;
const RINA_DOWNLINE = 201; // level 1, invites
const ANDI = 301; // below RINA_DOWNLINE

async function bench(store?: Store) {
  const s = store ?? (await openStore(await tempDir()));
  const ledger = new Ledger(s);
  const events = new TxEvents(silentLogger);
  const wallets = new Wallets({ store: s, logger: silentLogger });
  events.on("created", (tx) => wallets.settle(tx));
  const engine = new MoneyEngine({ ledger, events, logger: silentLogger });
  return { store: s, ledger, engine, wallets };
}

let seq = 0;
async function purchaseDraft(b: Awaited<ReturnType<typeof bench>>, price: number): Promise<string> {
  const refId = `T-WALLET-${++seq}`;
  await b.engine.reserve(
    {
      refId, chatId: OWNER, by: ANDI, kind: "prepaid", status: "draft", code: "S10", target: "081234567890", amount: 10_000,
      wallet: { chat: ANDI, price, state: "draft", commissions: [{ chat: RINA_DOWNLINE, amount: 300 }] },
    },
    true,
  );
  return refId;
}

function createThat(answer: Partial<TxRecord> | Error): Create & { calls: number } {
  const fn = (async (): Promise<Partial<TxRecord>> => {
    fn.calls++;
    if (answer instanceof Error) throw answer;
    return answer;
  }) as unknown as Create & { calls: number };
  fn.calls = 0;
  return fn;
}

async function topUp(b: Awaited<ReturnType<typeof bench>>, chat: number, amount: number) {
  return b.wallets.adjust({ ref: `ADJ-${++seq}`, owner: OWNER, wallet: chat, amount, reason: "cash", by: OWNER });
}

/** The settle the engine's event started: its listener runs after the emit; this waits for its writes. */
async function settled(b: Awaited<ReturnType<typeof bench>>, refId: string) {
  const tx = (await b.store.getTx(refId))!;
  await b.wallets.settle(tx);
  return b.store.getTx(refId);
}

describe("a purchase paid from a wallet, through the money engine", () => {
  it("too little available: refused as short, nothing held, no create; the draft can still be bought after a top-up", async () => {
    const b = await bench();
    await topUp(b, ANDI, 10_000);
    const refId = await purchaseDraft(b, 10_500);
    const create = createThat({ status: "pending", upstreamId: "U1" });
    const { claim } = await b.engine.claimAndSend(refId, create);
    expect(claim).toMatchObject({ claimed: false, reason: "short", available: 10_000 });
    expect(create.calls).toBe(0);
    expect(await b.wallets.view(ANDI)).toEqual({ balance: 10_000, held: 0, available: 10_000 });
    await topUp(b, ANDI, 500);
    const again = await b.engine.claimAndSend(refId, create);
    expect(again.outcome?.kind).toBe("answered");
    expect(create.calls).toBe(1);
    expect(await b.wallets.view(ANDI)).toEqual({ balance: 10_500, held: 10_500, available: 0 });
  });

  it("success debits the price once and credits the upline's commission once, however often it is settled", async () => {
    const b = await bench();
    await topUp(b, ANDI, 50_000);
    const refId = await purchaseDraft(b, 10_500);
    await b.engine.claimAndSend(refId, createThat({ status: "success", upstreamId: "U2", sn: "SN1" }));
    const tx = await settled(b, refId);
    await b.wallets.settle(tx!);
    expect(tx?.wallet?.state).toBe("posted");
    expect(await b.wallets.view(ANDI)).toEqual({ balance: 39_500, held: 0, available: 39_500 });
    expect(await b.wallets.view(RINA_DOWNLINE)).toMatchObject({ balance: 300 });
    expect((await b.wallets.entries(ANDI)).map((e) => [e.kind, e.amount])).toEqual([
      ["purchase", -10_500],
      ["adjust", 50_000],
    ]);
  });

  it("a refusal gives the hold back in its own write; an unclear outcome keeps it on hold", async () => {
    const b = await bench();
    await topUp(b, ANDI, 20_000);
    const failed = await purchaseDraft(b, 10_000);
    const r1 = await b.engine.claimAndSend(failed, createThat(new UpstreamRejected(CREATE_PATH, "Saldo tidak cukup")));
    expect(r1.outcome).toMatchObject({ kind: "rejected", tx: { status: "failed", wallet: { state: "released" } } });
    const unknown = await purchaseDraft(b, 10_000);
    const r2 = await b.engine.claimAndSend(unknown, createThat(new UpstreamUnavailable(CREATE_PATH, "timeout", { outcomeUnknown: true })));
    expect(r2.outcome).toMatchObject({ kind: "unknown", tx: { status: "unknown", wallet: { state: "held" } } });
    expect(await b.wallets.view(ANDI)).toEqual({ balance: 20_000, held: 10_000, available: 10_000 });
    // Later the watcher learns it went through.
    await b.store.transitionTx(unknown, ["unknown"], { status: "success" });
    await settled(b, unknown);
    expect(await b.wallets.view(ANDI)).toEqual({ balance: 10_000, held: 0, available: 10_000 });
  });

  it("a sale reversed after success gives the price back and takes the commission again", async () => {
    const b = await bench();
    await topUp(b, ANDI, 20_000);
    const refId = await purchaseDraft(b, 10_000);
    await b.engine.claimAndSend(refId, createThat({ status: "success", upstreamId: "U3" }));
    await settled(b, refId);
    await b.store.transitionTx(refId, ["success"], { status: "failed" });
    await settled(b, refId);
    await settled(b, refId);
    expect(await b.wallets.view(ANDI)).toMatchObject({ balance: 20_000 });
    expect(await b.wallets.view(RINA_DOWNLINE)).toMatchObject({ balance: 0 });
  });

  it("a paid deposit is credited once, from processing on, never while pending", async () => {
    const b = await bench();
    const refId = `T-DEP-${++seq}`;
    await b.store.createTx({ refId, chatId: OWNER, by: ANDI, kind: "deposit", status: "pending", amount: 50_000, code: "qris", wallet: { chat: ANDI, price: 0, state: "draft", credit: 49_650 } });
    await settled(b, refId);
    expect(await b.wallets.view(ANDI)).toMatchObject({ balance: 0 });
    await b.store.transitionTx(refId, ["pending"], { status: "processing" });
    await settled(b, refId);
    await b.store.transitionTx(refId, ["processing"], { status: "success" });
    await settled(b, refId);
    expect(await b.wallets.view(ANDI)).toMatchObject({ balance: 49_650 });
  });

  it("a stop between a success and its entries: the next start posts them, once", async () => {
    const b = await bench();
    await topUp(b, ANDI, 30_000);
    const refId = await purchaseDraft(b, 10_000);
    // The outcome is saved, but no listener settles it (the process stops right there).
    const bare = new MoneyEngine({ ledger: b.ledger, events: new TxEvents(silentLogger), logger: silentLogger });
    await bare.claimAndSend(refId, createThat({ status: "success", upstreamId: "U4" }));
    const dir = await mkdtemp(join(tmpdir(), "ppob-wallet-crash-"));
    await cp((b.store as FileStore).path, join(dir, "store"), { recursive: true });
    const reopened = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock() });
    onTestFinished(() => reopened.close());
    const after = await bench(reopened);
    expect(await after.wallets.view(ANDI)).toEqual({ balance: 30_000, held: 10_000, available: 20_000 });
    expect(await after.wallets.reconcile()).toBe(1);
    expect(await after.wallets.reconcile()).toBe(0);
    expect(await after.wallets.view(ANDI)).toEqual({ balance: 20_000, held: 0, available: 20_000 });
    expect(await after.wallets.view(RINA_DOWNLINE)).toMatchObject({ balance: 300 });
  });
  it("a stop between a deposit's paid status and its credit: the next start credits it, once", async () => {
    const b = await bench();
    const refId = `T-DEP-${++seq}`;
    await b.store.createTx({ refId, chatId: OWNER, by: ANDI, kind: "deposit", status: "pending", amount: 50_000, code: "qris", wallet: { chat: ANDI, price: 0, state: "draft", credit: 49_650 } });
    // The paid status is saved, but the process stops before the credit is posted (no listener here).
    await b.store.transitionTx(refId, ["pending"], { status: "success" });
    await b.store.flush();
    const dir = await mkdtemp(join(tmpdir(), "ppob-wallet-crash-"));
    await cp((b.store as FileStore).path, join(dir, "store"), { recursive: true });
    const reopened = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock() });
    onTestFinished(() => reopened.close());
    const after = await bench(reopened);
    expect(await after.wallets.view(ANDI)).toMatchObject({ balance: 0 });
    expect(await after.wallets.reconcile()).toBe(1);
    expect(await after.wallets.reconcile()).toBe(0);
    expect(await after.wallets.view(ANDI)).toEqual({ balance: 49_650, held: 0, available: 49_650 });
  });
});

const CREATE_PATH = "/transaksi/create";
