import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPostpaid, pendingPrepaid, pendingQris, pendingTransfer, run, statusCalls } from "./support.js";
import { detailOf } from "../../src/store/index.js";

let w: World;
afterEach(() => w?.close());

describe("status watcher: outcomes are announced once", () => {
  it("prepaid, postpaid and transfer: success with sn and price, failure with the reason, each exactly once", async () => {
    w = await makeWorld({ watcher: true });
    const budi = await w.linkedUser({ languageCode: "id" });
    const id = budi.chatId;

    const preOk = await pendingPrepaid(w, id, "081234567890");
    const preBad = await pendingPrepaid(w, id, "081200000000");
    const billOk = await pendingPostpaid(w, id, SANDBOX_CUSTOMERS.oneSheet);
    const billBad = await pendingPostpaid(w, id, SANDBOX_CUSTOMERS.paymentFails);
    const tfOk = await pendingTransfer(w, id, "1234567890");
    const tfBad = await pendingTransfer(w, id, "1234567000");
    for (const tx of [preOk, preBad, billOk, billBad, tfOk, tfBad]) expect(tx.watch).toMatchObject({ attempts: 0, notified: "pending" });

    // Nothing before the first check (5 s); the sandbox settles after 5 s too.
    await run(w, 4_000);
    expect(statusCalls(w)).toBe(0);
    await run(w, 2_000);
    expect(statusCalls(w)).toBe(6);

    const s = async (ref: string) => (await w.store.getTx(ref))!;
    expect(await s(preOk.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect((await s(preOk.refId)).sn).toMatch(/^\d{20}$/);
    expect(await s(preBad.refId)).toMatchObject({ status: "failed", message: expect.stringContaining("nomor tujuan tidak aktif") });
    expect((await s(billOk.refId)).status).toBe("success");
    expect((await s(billBad.refId)).status).toBe("failed");
    expect((await s(tfOk.refId)).status).toBe("success");
    expect((await s(tfBad.refId)).status).toBe("failed");

    const [okNotice] = noticesAbout(w, id, preOk.refId);
    expect(okNotice).toContain("Transaksi berhasil");
    expect(okNotice).toContain((await s(preOk.refId)).sn!);
    // The notice is short (it replies to the original, which shows the full receipt with the price).
    expect(okNotice).not.toContain(rupiah(preOk.amount, "id"));
    expect(w.fake.message(id, preOk.messageId!)!.text).toContain(rupiah(preOk.amount, "id"));
    const [badNotice] = noticesAbout(w, id, preBad.refId);
    expect(badNotice).toContain("Transaksi gagal");
    expect(badNotice).toContain("nomor tujuan tidak aktif");
    expect(noticesAbout(w, id, billBad.refId)[0]).toContain("Pembayaran gagal dari biller");

    // The pending messages were rewritten to the outcome (and lost their buttons).
    const original = w.fake.message(id, preOk.messageId!)!;
    expect(original.edited).toBe(true);
    expect(original.text).toContain("Berhasil");

    // Hours later: no second notice, no more polling of final transactions.
    const calls = statusCalls(w);
    await run(w, 3 * 3600_000);
    expect(statusCalls(w)).toBe(calls);
    for (const tx of [preOk, preBad, billOk, billBad, tfOk, tfBad]) expect(noticesAbout(w, id, tx.refId)).toHaveLength(1);
    expect(w.watcher!.stats().scheduled).toBe(0);
  });

  it("end to end through /beli and the confirm engine: the pending receipt, then one success notice", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton(/Konfirmasi/);
    // The watcher takes the record up from the engine's event, after the answer: on PostgreSQL its write
    // takes real time, so it is waited for, not raced.
    await w.watcher!.whenIdle();
    await w.storeSettled();
    const [tx] = (await w.store.listTxByChat(u.chatId)).items;
    expect(tx).toMatchObject({ status: "pending", watch: { attempts: 0, notified: "pending" } });
    const receipt = w.fake.message(u.chatId, tx!.messageId!)!;
    expect(u.buttons({ messageId: receipt.messageId })).toEqual(["🔄 Cek status"]);

    await run(w, 10_000);
    expect((await w.store.getTx(tx!.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, tx!.refId).filter((t) => t.includes("Transaksi berhasil"))).toHaveLength(1);
    expect(w.fake.message(u.chatId, tx!.messageId!)!.text).toContain("Berhasil");
    // Status check gone; the shop actions of a successful sale instead.
    expect(u.buttons({ messageId: receipt.messageId })).toEqual(["🧾 Struk", "🔁 Beli lagi", "📋 Salin SN", "💾 Simpan pelanggan"]);
    await run(w, 3600_000);
    expect(noticesAbout(w, u.chatId, tx!.refId).filter((t) => t.includes("Transaksi berhasil"))).toHaveLength(1);
  });

  it("English chats get English notices", async () => {
    w = await makeWorld({ watcher: true });
    const ann = await w.linkedUser({ languageCode: "en" });
    const tx = await pendingPrepaid(w, ann.chatId, "081298765432");
    await run(w, 10_000);
    expect(noticesAbout(w, ann.chatId, tx.refId)[0]).toContain("Transaction successful");
  });

  it("QRIS deposit: paid -> processing (caption edited, instant-release hint), settled -> success with the amount credited", async () => {
    w = await makeWorld({ watcher: true });
    const sari = await w.linkedUser({ languageCode: "id" });
    const dep = await pendingQris(w, sari.chatId, "qris", 50_000);

    await run(w, 60_000);
    expect((await w.store.getTx(dep.refId))!.status).toBe("pending");
    expect(noticesAbout(w, sari.chatId, dep.refId)).toHaveLength(0);

    w.sandbox.payDeposit(dep.upstreamId!);
    await run(w, 5 * 60_000);
    expect(await w.store.getTx(dep.refId)).toMatchObject({ status: "processing", watch: { notified: "processing" } });
    const processing = noticesAbout(w, sari.chatId, dep.refId);
    expect(processing).toHaveLength(1);
    expect(processing[0]).toContain("Pembayaran deposit diterima");
    expect(processing[0]).toContain("instant");
    const photo = w.fake.message(sari.chatId, dep.messageId!)!;
    expect(photo.caption).toContain("SUDAH DIBAYAR");
    expect(photo.inlineKeyboard?.flat().map((b) => b.text)).not.toContain("Cancel");

    w.sandbox.settleDeposit(dep.upstreamId!);
    await run(w, 6 * 60_000);
    const done = (await w.store.getTx(dep.refId))!;
    expect(done).toMatchObject({ status: "success", watch: { notified: "success" } });
    const notices = noticesAbout(w, sari.chatId, dep.refId);
    expect(notices).toHaveLength(2);
    expect(notices[1]).toContain("Deposit masuk");
    expect(notices[1]).toContain(rupiah(detailOf(done, "deposit").credited!, "id"));
    expect(w.fake.message(sari.chatId, dep.messageId!)!.caption).toContain("LUNAS");
    expect(w.fake.message(sari.chatId, dep.messageId!)!.inlineKeyboard).toBeUndefined();

    await run(w, 3600_000);
    expect(noticesAbout(w, sari.chatId, dep.refId)).toHaveLength(2);
  });

  /** /deposit -> QRIS -> Rp50.000 -> Confirm, as a user does; the deposit it made. */
  async function qrisDepositThroughBot(u: FakeUser) {
    await u.sendCommand("deposit");
    await u.pressButton(u.buttons().find((b) => /QRIS/.test(b) && !/Fast/.test(b))!);
    await u.sendText("50000");
    await u.pressButton(/Konfirmasi/);
    return (await w.store.listTxByChat(u.chatId)).items[0];
  }

  it("end to end through /deposit: the QRIS photo's caption follows the payment, its buttons go", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const tx = await qrisDepositThroughBot(u);
    expect(tx).toMatchObject({ kind: "deposit", status: "pending", detail: { photo: true } });
    expect(w.fake.message(u.chatId, tx!.messageId!)!.kind).toBe("photo");

    w.sandbox.payDeposit(tx!.upstreamId!);
    await run(w, 10_000);
    expect((await w.store.getTx(tx!.refId))!.status).toBe("processing");
    const photo = w.fake.message(u.chatId, tx!.messageId!)!;
    expect(photo.caption).toContain("SUDAH DIBAYAR");
    // Production wiring: a paid deposit offers the instant release on the photo and on the notice.
    expect(photo.inlineKeyboard?.flat().map((b) => b.text)).toEqual(["🔄 Cek status", "⚡ Cairkan sekarang"]);
    expect(noticesAbout(w, u.chatId, tx!.refId).filter((t) => t.includes("Pembayaran deposit diterima"))).toHaveLength(1);
  });

  it("the release button on the watcher's notice releases the paid deposit once", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const tx = await qrisDepositThroughBot(u);
    w.sandbox.payDeposit(tx!.upstreamId!);
    await run(w, 10_000);

    const notice = w.fake
      .sentTo(u.chatId)
      .filter((c) => c.method === "sendMessage" && String(c.payload.text).includes("Pembayaran deposit diterima"))
      .at(-1)!;
    const noticeId = (notice.response as { result: { message_id: number } }).result.message_id;
    expect(u.buttons({ messageId: noticeId })).toContain("⚡ Cairkan sekarang");
    await u.pressButton(/Cairkan sekarang/, { messageId: noticeId });
    await u.pressButton(/Ya, cairkan/);
    expect(u.replies().some((r) => r.includes("Deposit dicairkan"))).toBe(true);
    expect(await w.store.getTx(tx!.refId)).toMatchObject({ status: "success", detail: { instant: "done" } });
    const releases = () => w.sandbox.calls("/deposit/instant").filter((c) => c.body.action === "true");
    expect(releases()).toHaveLength(1);
    // Pressed again from the same notice: nothing is released twice.
    await u.pressButton(/Cairkan sekarang/, { messageId: noticeId }).catch(() => undefined);
    expect(releases()).toHaveLength(1);
  });

  it("QRIS Fast deposit: paid -> success at once", async () => {
    w = await makeWorld({ watcher: true });
    const sari = await w.linkedUser({ languageCode: "en" });
    const dep = await pendingQris(w, sari.chatId, "qrisfast", 20_000);
    w.sandbox.payDeposit(dep.upstreamId!);
    await run(w, 10_000);
    expect((await w.store.getTx(dep.refId))!.status).toBe("success");
    const notices = noticesAbout(w, sari.chatId, dep.refId);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("Deposit received");
    expect(w.fake.message(sari.chatId, dep.messageId!)!.caption).toContain("PAID");
  });
});
