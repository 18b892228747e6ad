/**
 * A downline's payout (/tarik, docs/wallets.md "Money out") through the built bot: Andi asks for money
 * out of his wallet; it is held, nothing leaves until Rina opens the ordinary transfer confirm screen and
 * confirms (her key, her fee); the hold becomes one payout entry on success, and comes back when the
 * transfer fails, when Rina declines, or after 24 hours unconfirmed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { rupiah } from "../../src/render/format.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { fund, rinaAndAndi } from "./support.js";

const CREATE = "/transfer/create";
const rp = (n: number) => rupiah(n, "id");

let w: World;
beforeEach(async () => {
  w = await makeWorld({ watcher: true });
});
afterEach(() => w.close());

function lastAlert(): string {
  return String(w.fake.callsOf("answerCallbackQuery").at(-1)?.payload.text ?? "");
}

/** Andi's /tarik up to its confirm screen: BCA, `account`, `amount`. */
async function askPayout(andi: FakeUser, account: string, amount: number): Promise<void> {
  await andi.sendCommand("tarik");
  expect(andi.lastReply()).toContain("Tarik saldo dompet");
  await andi.sendText("bca");
  await andi.pressButton(/BCA/);
  await andi.sendText(account);
  expect(andi.lastReply()).toContain("Berapa yang ditarik");
  await andi.sendText(String(amount));
}

/** Asks and confirms; returns the payout's record. */
async function requestPayout(andi: FakeUser, rina: FakeUser, account: string, amount: number) {
  await askPayout(andi, account, amount);
  expect(andi.lastReply()).toContain(`Tarik ${rp(amount)} dari dompet Anda`);
  await andi.pressButton(/Konfirmasi/);
  const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.kind === "transfer" && t.target === account)!;
  expect(tx).toMatchObject({ status: "draft", by: andi.chatId, amount, wallet: { chat: andi.chatId, price: amount, state: "held" } });
  return tx;
}

const payoutEntries = async (andi: FakeUser) => (await w.app.deps.wallets.entries(andi.chatId, { limit: 100 })).filter((e) => e.kind === "payout");
const told = (u: FakeUser, text: string) => u.messages().filter((m) => m.from === "bot" && m.text?.includes(text));

describe("a downline's payout (/tarik)", () => {
  it("with nothing available says so instead of opening the bank list", async () => {
    const { andi } = await rinaAndAndi(w);
    await andi.sendCommand("tarik");
    expect(andi.lastReply()).toContain("Belum ada yang bisa ditarik");
    expect(andi.lastReply()).toContain(rp(0));
    expect(andi.lastReply()).not.toContain("Tarik saldo dompet");
    expect(andi.buttons()).toEqual([]);
  });

  it("is held and nothing leaves until the owner confirms; then one create with the owner's key and one payout entry on success", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    const tx = await requestPayout(andi, rina, "1234567890", 20_000);
    expect(andi.lastReply()).toContain(`${rp(20_000)} ditahan di dompet Anda sampai upline mengonfirmasi`);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 50_000, held: 20_000, available: 30_000 });
    // Nothing leaves on its own, however long the watcher runs.
    await run(w, 60_000);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);

    // Rina's one message: open the ordinary transfer confirm screen, or decline.
    const request = told(rina, "minta tarik");
    expect(request).toHaveLength(1);
    expect(request[0]!.text).toContain(`Andi minta tarik ${rp(20_000)}`);
    await rina.pressButton(/Buka transfer/);
    const screen = rina.lastReply()!;
    expect(screen).toContain("Transfer ke Bank Central Asia (BCA)");
    expect(screen).toContain("Biaya admin");
    expect(screen).toContain(`Penarikan dompet Andi: dompetnya dipotong ${rp(20_000)}`);
    const confirm = rina.messages().at(-1)!.messageId;
    await rina.pressButton(/Konfirmasi/, { messageId: confirm });
    await rina.pressButton(/Konfirmasi/, { messageId: confirm }).catch(() => undefined);
    const calls = w.sandbox.calls(CREATE);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ api_key: w.demoKey });

    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    await w.app.deps.payouts.idle();
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", wallet: { state: "posted" } });
    // Repeated checks and callbacks post nothing twice.
    await rina.sendCommand("status", tx.refId);
    await w.app.deps.wallets.settle((await w.store.getTx(tx.refId))!);
    await run(w, 60_000);
    await w.app.deps.wallets.idle();
    await w.app.deps.payouts.idle();
    expect(await payoutEntries(andi)).toHaveLength(1);
    expect((await payoutEntries(andi))[0]!.amount).toBe(-20_000);
    // The wallet pays the amount only; the fee was Rina's.
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: 0, available: 30_000 });
    const success = told(andi, "berhasil");
    expect(success).toHaveLength(1);
    expect(success[0]!.text).toContain(`Penarikan ${rp(20_000)} ke Bank Central Asia (BCA)`);
    expect(success[0]!.text).toContain(`Saldo dompet: ${rp(30_000)}`);
    expect(success[0]!.text).not.toMatch(/Biaya|modal/);
  });

  it("a failed transfer releases the hold and the downline is told its balance", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    const tx = await requestPayout(andi, rina, "1234567000", 20_000); // the sandbox fails an account ending in 000
    await rina.pressButton(/Buka transfer/);
    await rina.pressButton(/Konfirmasi/);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    await w.app.deps.payouts.idle();
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "failed", wallet: { state: "released" } });
    expect(await payoutEntries(andi)).toHaveLength(0);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
    const failed = told(andi, "gagal");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text).toContain(`Saldo dompet: ${rp(50_000)}`);
  });

  it("declined by the owner: released, the downline told, and the request's buttons open nothing after", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    const tx = await requestPayout(andi, rina, "1234567890", 20_000);
    const request = rina.messages().at(-1)!.messageId;
    const openLater = rina.callbackUpdate(/Buka transfer/, { messageId: request });
    await rina.pressButton(/Tolak/, { messageId: request });
    await rina.pressButton(/Tolak/, { messageId: request }).catch(() => undefined);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "cancel", wallet: { state: "released" } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
    expect(told(andi, "menolak penarikan")).toHaveLength(1);
    // Its buttons are gone; a tap made before (a slow chat) opens nothing.
    expect(rina.buttons({ messageId: request })).toEqual([]);
    await rina.deliver(openLater);
    expect(lastAlert()).toContain("sudah tidak berlaku");
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("the owner's request lost to Telegram (the owner had blocked the bot) is sent again by the leader's sweep, once", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    const requests = () => rina.messages().filter((m) => m.from === "bot" && m.text?.includes("minta tarik"));
    w.fake.failNext("sendMessage", TelegramErrors.blocked(), { chatId: rina.chatId });
    const tx = await requestPayout(andi, rina, "1234567890", 20_000);
    expect(requests()).toHaveLength(0);
    await w.app.start();
    for (let i = 0; i < 3; i++) {
      await run(w, 60_000);
      await w.deps.shopOrderJob.idle();
    }
    expect(requests()).toHaveLength(1);
    await rina.pressButton(/Buka transfer/);
    expect(rina.lastReply()).toContain("Periksa sebelum konfirmasi");
    expect((await w.store.getTx(tx.refId))?.status).toBe("draft");
  });

  it("left unconfirmed for 24 hours: cancelled and released, the downline told once", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    const tx = await requestPayout(andi, rina, "1234567890", 20_000);
    await w.clock.advance(23 * 3_600_000);
    // Started as in production (after the jump: a sweep every 10 s over 23 hours is slow on PostgreSQL):
    // the shop order job's sweep, which expires unconfirmed refunds, expires payout requests too.
    await w.app.start();
    await run(w, 30_000);
    await w.deps.shopOrderJob.idle();
    expect((await w.store.getTx(tx.refId))?.status).toBe("draft");
    await w.clock.advance(3_600_000);
    await run(w, 30_000);
    await w.deps.shopOrderJob.idle();
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "cancel", wallet: { state: "released" } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 50_000, held: 0, available: 50_000 });
    await run(w, 30_000);
    await w.deps.shopOrderJob.idle();
    expect(told(andi, "dalam 24 jam")).toHaveLength(1);
    await rina.pressButton(/Buka transfer/).catch(() => undefined);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("an account number typed at the bank list gets the list again with Batal, and the bank picked from it", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    await andi.sendCommand("tarik");
    await andi.sendText("1234567890");
    const answer = andi.messages().at(-1)!;
    expect(answer.text).toContain('Tidak ada bank atau e-wallet yang cocok dengan "1234567890"');
    const labels = (answer.inlineKeyboard ?? []).flat().map((b) => b.text);
    expect(labels).toContain("❌ Batal");
    expect(labels).toContain("👛 DANA (e-wallet)");
    await andi.sendText("bca");
    await andi.pressButton(/BCA/);
    await andi.sendText("1234567890");
    expect(andi.lastReply()).toContain("Berapa yang ditarik");
  });

  it("too little available is refused with a clear message and nothing is held (at the amount, and at Confirm)", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 30_000);
    await askPayout(andi, "1234567890", 5_000);
    // A withdrawal's minimum, in its own words (it said "Nominal transfer minimal").
    expect(andi.lastReply()).toContain("Penarikan minimal");
    expect(andi.lastReply()).not.toContain("transfer");
    await andi.sendText("40000");
    expect(andi.lastReply()).toContain(`bisa dipakai ${rp(30_000)}, kurang untuk ${rp(40_000)}`);
    await andi.sendText("25000");
    expect(andi.lastReply()).toContain(`Tarik ${rp(25_000)} dari dompet Anda`);
    // Meanwhile Rina takes 10.000 by hand: Confirm now finds too little, in the hold's own write.
    const screen = andi.messages().at(-1)!.messageId;
    await fund(w, rina, "Andi", 10_000, "koreksi", "out");
    await andi.pressButton(/Konfirmasi/, { messageId: screen });
    expect(andi.lastReply()).toContain(`bisa dipakai ${rp(20_000)}, kurang untuk ${rp(25_000)}`);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 20_000, held: 0, available: 20_000 });
    expect((await w.store.listTxByChat(rina.chatId)).items.filter((t) => t.kind === "transfer")).toHaveLength(0);
    expect(told(rina, "minta tarik")).toHaveLength(0);
  });

  it("a downline cannot reach /transfer, nor confirm its own payout's transfer; the owner has no /tarik", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await andi.sendCommand("transfer");
    expect(andi.lastReply()).toContain("Hanya pemilik");
    await fund(w, rina, "Andi", 50_000);
    const tx = await requestPayout(andi, rina, "1234567890", 20_000);
    // A forged Confirm of the payout's transfer from Andi's chat.
    const msg = andi.messages().at(-1)!;
    await andi.deliver({
      update_id: w.fake.nextUpdateId(),
      callback_query: { id: "forged-1", from: andi.user, chat_instance: "1", data: `ok:${tx.refId}`, message: w.fake.message(andi.chatId, msg.messageId)!.message },
    } as never);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect((await w.store.getTx(tx.refId))?.status).toBe("draft");
    await rina.sendCommand("tarik");
    expect(rina.lastReply()).toContain("Penarikan hanya untuk downline");
  });
});
