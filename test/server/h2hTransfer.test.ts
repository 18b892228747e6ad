/**
 * Transfers over H2H (docs/h2h.md "Transfers"), over HTTP with the bot's own provider client: Andi's
 * system asks for a transfer out of his wallet; it is his /tarik: held, pending until Rina confirms it in
 * Telegram (her key, her fee), then its outcome; a decline or 24 h releases the hold. Each ending is
 * POSTed to Andi's callback URL as the provider's `transfer` callback. deposit/metode answers QRIS only.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, expect, it } from "vitest";
import { h2hRef } from "../../src/money/h2hSales.js";
import type { UpstreamClient } from "../../src/upstream/client.js";
import { UpstreamRejected } from "../../src/upstream/errors.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { ANDI, andiJoins, fundWallet, grantH2h, h2hClient, RINA } from "../h2h/support.js";

const CREATE = "/transfer/create";

let w: World;
let key: string;
let client: UpstreamClient;
let rina: FakeUser;
let receiver: Server;
let receiverUrl: string;
let received: string[];

beforeEach(async () => {
  received = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;

  w = await makeWorld({ env: { HTTP_PORT: "0" }, watcher: true });
  await w.app.start();
  rina = await w.linkedUser({ id: RINA, firstName: "Rina", languageCode: "id" });
  await andiJoins(w);
  key = await grantH2h(w, ANDI);
  await w.app.h2hAccess.setCallbackUrl(ANDI, receiverUrl);
  await fundWallet(w, ANDI, 50_000, "F1");
  client = h2hClient(w);
});
afterEach(async () => {
  await client.close();
  await w.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function refusal(p: Promise<unknown>): Promise<UpstreamRejected> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UpstreamRejected);
  return err as UpstreamRejected;
}

const ask = (refId: string, amount: number, accountNumber = "1234567890") =>
  client.createTransfer(key, { refId, bankCode: "bca", accountNumber, holderName: "ANDI SAPUTRA", amount, note: "tarik" });

/** Rina's request messages (one per payout asked). */
const requests = () => rina.messages().filter((m) => m.from === "bot" && m.text?.includes("minta tarik"));

/** Time passes for the watcher, the payout notices and the callback sender. */
async function settle(ms = 10_000): Promise<void> {
  await run(w, ms);
  await w.app.deps.wallets.idle();
  await w.app.deps.payouts.idle();
  for (let i = 0; i < 3; i++) {
    await w.app.h2hCallbacks.whenIdle();
    await w.clock.advance(1000);
  }
  await w.app.h2hCallbacks.whenIdle();
}

const callbacks = () => received.map((b) => JSON.parse(b) as { event: string; status: string; data: Record<string, unknown> });

it("answers pending, holds the amount once per ref_id (also 10 at once) and asks the owner in Telegram", async () => {
  const t = await ask("T1", 20_000);
  expect(t).toMatchObject({ reffId: "T1", amount: 20_000, fee: 0, total: 20_000, status: "pending", holderName: "ANDI SAPUTRA", accountNumber: "1234567890" });
  expect(t.id).toBe(h2hRef("transfer", ANDI, "T1"));
  const again = await ask("T1", 20_000);
  expect(again.id).toBe(t.id);
  expect(await w.store.getTx(t.id)).toMatchObject({ kind: "transfer", status: "draft", chatId: RINA, by: ANDI, clientRef: "T1", wallet: { chat: ANDI, price: 20_000, state: "held" } });
  expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: 50_000, held: 20_000, available: 30_000 });

  // 10 at once (some may be told 429: a key's 8 in flight): one request, one hold, one message.
  const burst = await Promise.allSettled(Array.from({ length: 10 }, () => ask("T2", 10_000)));
  const answered = burst.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  expect(answered.length).toBeGreaterThan(0);
  expect(new Set(answered.map((a) => a.id))).toEqual(new Set([h2hRef("transfer", ANDI, "T2")]));
  expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: 50_000, held: 30_000, available: 20_000 });

  // Rina: one message each, saying it came over H2H; nothing sent to the provider.
  expect(requests()).toHaveLength(2);
  expect(requests()[0]!.text).toContain("Andi minta tarik");
  expect(requests()[0]!.text).toContain("lewat H2H");
  await settle(60_000);
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  expect((await client.transferStatus(key, "T1")).status).toBe("pending");
  expect(received).toHaveLength(0);
});

it("refuses too little in the wallet, under the minimum, an unknown bank: nothing held, nothing asked", async () => {
  expect((await refusal(ask("T3", 60_000))).providerCode).toBe(402);
  expect((await refusal(ask("T4", 5_000))).providerCode).toBe(422);
  expect((await refusal(client.createTransfer(key, { refId: "T5", bankCode: "nobank", accountNumber: "1", holderName: "X", amount: 20_000 }))).providerCode).toBe(404);
  expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
  expect(await w.store.getTx(h2hRef("transfer", ANDI, "T3"))).toBeUndefined();
  expect(requests()).toHaveLength(0);
  // A refusal saved nothing: the same ref_id works after a top-up.
  await w.app.deps.wallets.adjust({ ref: "F2", owner: RINA, wallet: ANDI, amount: 20_000, reason: "tunai", by: RINA });
  expect((await ask("T3", 60_000)).status).toBe("pending");
});

it("the owner confirms in Telegram: one create with the owner's key, success told by status and by the transfer callback", async () => {
  const t = await ask("T6", 20_000);
  await rina.pressButton(/Buka transfer/);
  await rina.pressButton(/Konfirmasi/);
  const calls = w.sandbox.calls(CREATE);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.body).toMatchObject({ api_key: w.demoKey, nominal: "20000" });
  await settle();
  expect(await w.store.getTx(t.id)).toMatchObject({ status: "success", wallet: { state: "posted" } });
  expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: 30_000, held: 0, available: 30_000 });
  // By our id and by the downline's ref_id.
  expect(await client.transferStatus(key, t.id)).toMatchObject({ id: t.id, reffId: "T6", status: "success", amount: 20_000, fee: 0, bankCode: "bca" });
  expect((await client.transferStatus(key, "T6")).id).toBe(t.id);
  const told = callbacks().filter((c) => c.status === "success");
  expect(told.length).toBeGreaterThanOrEqual(1);
  expect(told[0]).toMatchObject({ event: "transfer", status: "success", data: { id: t.id, reff_id: "T6", nominal: "20000", status: "success", nomor_tujuan: "1234567890" } });
  expect(new Set(received).size).toBe(1);
  // Rina's transfer: her notice of its outcome as for any payout; Andi's system is told, not his chat.
  const notices = w.fake.sentTo(RINA).filter((c) => c.method === "sendMessage").map((c) => w.fake.textOf(c) ?? "");
  expect(notices.filter((x) => x.startsWith("✅ Transaksi berhasil") && x.includes(t.id))).toHaveLength(1);
  expect(w.fake.sentTo(ANDI)).toHaveLength(0);
  expect((await refusal(client.transferStatus(key, "NOPE"))).providerCode).toBe(404);
});

it("the owner declines: cancelled, the hold released, failed by status and by callback; 24 h unconfirmed the same", async () => {
  const t = await ask("T7", 20_000);
  await rina.pressButton(/Tolak/);
  expect(await w.store.getTx(t.id)).toMatchObject({ status: "cancel", wallet: { state: "released" } });
  expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
  await settle();
  expect((await client.transferStatus(key, "T7")).status).toBe("failed");
  expect(callbacks()).toEqual([expect.objectContaining({ event: "transfer", status: "failed", data: expect.objectContaining({ id: t.id, reff_id: "T7", status: "failed" }) })]);

  const late = await ask("T8", 10_000);
  // A day passes at once (each poll fires once after it, not every 5 s of it: slow on PostgreSQL).
  await w.clock.jump(24 * 3_600_000 + 60_000);
  // The leader's sweep (the shop order job's) expires it, as in production.
  await run(w, 30_000);
  await w.deps.shopOrderJob.idle();
  await settle();
  expect(await w.store.getTx(late.id)).toMatchObject({ status: "cancel", wallet: { state: "released" } });
  expect((await client.transferStatus(key, "T8")).status).toBe("failed");
  expect(callbacks().filter((c) => c.data.reff_id === "T8").map((c) => c.status)).toEqual(["failed"]);
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
});

it("deposit/metode answers the owner's QRIS method only, in the provider's shape", async () => {
  const methods = await client.depositMethods(key);
  expect(methods.length).toBe(1);
  expect(methods[0]).toMatchObject({ method: expect.stringMatching(/^qris$/i), active: true });
  const own = (await w.upstream.depositMethods(w.demoKey)).find((m) => m.method.toLowerCase() === "qris")!;
  expect(methods[0]).toMatchObject({ min: own.min, max: own.max, type: own.type });
  expect(await client.depositMethods(key, { type: "bank" })).toEqual([]);
});
