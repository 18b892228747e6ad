/**
 * Helpers for watcher tests: step the ManualClock check by check (each status call is real HTTP
 * to the sandbox, so the clock must wait for it), and create transactions the way the confirm
 * engine leaves them (pending at the provider, a message showing them, the afterCreate hook).
 */
import QRCode from "qrcode";
import { InputFile } from "grammy";
import type { ManualClock } from "../../src/tools/clock.js";
import { newRefId } from "../../src/bot/money/refs.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import type { NewTx } from "../../src/store/index.js";
import type { TxRecord } from "../../src/store/index.js";
import type { StatusWatcher } from "../../src/jobs/watcher/watcher.js";
import type { World } from "../support/world.js";

/**
 * Advances the clock by `ms`, stopping at every due check and waiting for it (and what it
 * scheduled) before going on, so every check runs at exactly its due time.
 */
export async function runFor(clock: ManualClock, watcher: StatusWatcher, ms: number): Promise<void> {
  const target = clock.now() + ms;
  for (;;) {
    await watcher.whenIdle();
    const now = clock.now();
    const next = watcher.nextWakeAt();
    if (next !== undefined && next <= target) {
      await clock.advance(Math.max(0, next - now));
      continue;
    }
    if (now < target) {
      await clock.advance(target - now);
      continue;
    }
    await watcher.whenIdle();
    return;
  }
}

/** `runFor` on a world with a watcher. */
export function run(w: World, ms: number): Promise<void> {
  return runFor(w.clock, w.watcher!, ms);
}

let seq = 0;
function ref(kind: TxRecord["kind"], now: number): string {
  // newRefId is random; a counter keeps refs unique even within one clock millisecond.
  return `${newRefId(kind, now).slice(0, 12)}${String(++seq).padStart(4, "0")}`;
}

/** What the engine does after a create: a message showing it, saved, then the hook. */
async function record(w: World, tx: NewTx, text = "⏳ pending"): Promise<TxRecord> {
  const sent = await w.bot.api.sendMessage(tx.chatId, text);
  const saved = await w.store.createTx({ ...tx, messageId: sent.message_id });
  await w.store.flush();
  w.deps.events.emit("created", saved);
  await w.watcher?.whenIdle(); // the watcher reads the store before it marks the record watched
  return (await w.store.getTx(saved.refId))!;
}

export async function pendingPrepaid(w: World, chatId: number, target: string, code = "S10"): Promise<TxRecord> {
  const refId = ref("prepaid", w.clock.now());
  const r = await w.upstream.createTransaction(w.demoKey, { code, reffId: refId, target, limitPrice: 100_000 });
  return record(w, { refId, chatId, kind: "prepaid", status: "pending", upstreamId: r.id, code, title: r.productName, target, amount: r.price });
}

export async function pendingPostpaid(w: World, chatId: number, customerNo: string = SANDBOX_CUSTOMERS.oneSheet): Promise<TxRecord> {
  const refId = ref("postpaid", w.clock.now());
  const bill = await w.upstream.billInquiry(w.demoKey, { code: "PPLN", reffId: refId, customerNo });
  const r = await w.upstream.billPay(w.demoKey, { code: "PPLN", reffId: refId, customerNo });
  return record(w, {
    refId, chatId, kind: "postpaid", status: "pending", upstreamId: r.id, code: "PPLN", title: "PLN Pascabayar",
    target: customerNo, amount: bill.total, detail: { customerName: bill.customerName },
  });
}

export async function pendingTransfer(w: World, chatId: number, accountNumber: string): Promise<TxRecord> {
  const refId = ref("transfer", w.clock.now());
  const r = await w.upstream.createTransfer(w.demoKey, { refId, bankCode: "bca", accountNumber, holderName: "BUDI SANTOSO", amount: 10_000 });
  return record(w, {
    refId, chatId, kind: "transfer", status: "pending", upstreamId: r.id, code: "bca", title: "BCA",
    target: accountNumber, amount: r.amount, fee: r.fee, total: r.total,
  });
}

/** A QRIS deposit shown as a photo (the deposit feature's shape: detail.expiresAt, detail.photo). */
export async function pendingQris(w: World, chatId: number, method: "qris" | "qrisfast" = "qris", amount = 50_000): Promise<TxRecord> {
  const refId = ref("deposit", w.clock.now());
  const d = await w.upstream.createDeposit(w.demoKey, { reffId: refId, amount, type: "ewallet", method });
  const png = await QRCode.toBuffer(d.qrString!, { type: "png" });
  const sent = await w.bot.api.sendPhoto(chatId, new InputFile(png, "qris.png"), {
    caption: `Scan to pay ${refId}`,
    reply_markup: { inline_keyboard: [[{ text: "Cancel", callback_data: `dp:x:${refId}` }]] },
  });
  const saved = await w.store.createTx({
    refId, chatId, kind: "deposit", status: "pending", upstreamId: d.id, code: method, title: "QRIS", amount: d.amount, fee: d.fee,
    messageId: sent.message_id, detail: { expiresAt: d.expiresAt!.getTime(), credited: d.credited, photo: true },
  });
  await w.store.flush();
  w.deps.events.emit("created", saved);
  await w.watcher?.whenIdle(); // the watcher reads the store before it marks the record watched
  return (await w.store.getTx(saved.refId))!;
}

/** Bot API calls that posted a new message mentioning `text` (a reference id) to `chatId`. */
export function noticesAbout(w: World, chatId: number, text: string): string[] {
  return w.fake
    .sentTo(chatId)
    .filter((c) => c.method === "sendMessage" && String(c.payload.text).includes(text))
    .map((c) => String(c.payload.text));
}

/** Status calls the sandbox received for a provider id or reference. */
export function statusCalls(w: World, id?: string): number {
  const paths = ["/transaksi/status", "/transfer/status", "/deposit/status"];
  return paths.flatMap((p) => w.sandbox.calls(p)).filter((c) => id === undefined || c.body.id === id).length;
}
