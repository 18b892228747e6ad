import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, pendingQris, pendingTransfer, run, statusCalls } from "../jobs/support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

describe("/status", () => {
  it("checks an own transaction by reference id (any case) or provider id, shows the receipt, and the watcher does not repeat it", async () => {
    w = await makeWorld({ watcher: { firstCheckMs: 10 * MIN } });
    const budi = await w.linkedUser({ languageCode: "id" });
    const tx = await pendingPrepaid(w, budi.chatId, "081234567890");

    await budi.sendCommand("status", tx.upstreamId);
    expect(budi.lastReply()).toContain("Diproses");
    expect(budi.buttons()).toEqual(["🔄 Perbarui status"]);

    await w.clock.advance(6 * S); // the sandbox settles at 5 s; the watcher has not looked yet
    await budi.sendCommand("status", tx.refId.toLowerCase());
    const reply = budi.lastReply()!;
    expect(reply).toContain("Berhasil");
    const done = (await w.store.getTx(tx.refId))!;
    expect(done).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect(reply).toContain(done.sn!);
    expect(reply).toContain(tx.upstreamId!);
    // Final: no refresh button; the success notice's actions instead.
    expect(budi.keyboard({ messageId: budi.messages().at(-1)!.messageId })).toEqual([["🧾 Struk", "🔁 Beli lagi"], ["📋 Salin SN"], ["💾 Simpan pelanggan"]]);
    // The pending message shows the outcome too.
    expect(w.fake.message(budi.chatId, tx.messageId!)!.text).toContain("Berhasil");

    const told = noticesAbout(w, budi.chatId, tx.refId).length;
    await run(w, 30 * MIN);
    expect(noticesAbout(w, budi.chatId, tx.refId)).toHaveLength(told);

    // A final transaction is shown as stored, without asking the provider again.
    const calls = statusCalls(w);
    await budi.sendCommand("status", tx.refId);
    expect(budi.lastReply()).toContain("Berhasil");
    expect(statusCalls(w)).toBe(calls);
  });

  it("another chat's ids are 'not found' and never looked up", async () => {
    w = await makeWorld();
    const owner = await w.linkedUser({ languageCode: "en" });
    const other = await w.linkedUser({ languageCode: "en" });
    const tx = await pendingPrepaid(w, owner.chatId, "081234567890");

    for (const id of [tx.refId, tx.upstreamId!, "NOSUCHID123"]) {
      await other.sendCommand("status", id);
      expect(other.lastReply()).toContain("No transaction");
      expect(other.lastReply()).not.toContain("Telkomsel");
    }
    expect(statusCalls(w)).toBe(0);

    // A "check status" button carrying someone else's reference is refused the same way.
    await w.bot.api.sendMessage(other.chatId, "forged", { reply_markup: { inline_keyboard: [[{ text: "check", callback_data: `st:${tx.refId}` }]] } });
    const calls = await other.pressButton("check");
    const answer = calls.find((c) => c.method === "answerCallbackQuery")!;
    expect(String(answer.payload.text)).toContain("no longer valid");
    expect(statusCalls(w)).toBe(0);
  });

  it("the 'check status' button on a pending message checks now and updates that message in place", async () => {
    w = await makeWorld();
    const ani = await w.linkedUser({ languageCode: "en" });
    const tx = await pendingTransfer(w, ani.chatId, "1234567890");
    const sent = await w.bot.api.sendMessage(ani.chatId, "⏳ Processing", { reply_markup: { inline_keyboard: [[{ text: "🔄 Check status", callback_data: `st:${tx.refId}` }]] } });

    let calls = await ani.pressButton("🔄 Check status");
    expect(calls.find((c) => c.method === "answerCallbackQuery")!.payload.text).toBe("Status: ⏳ Processing");
    expect(w.fake.message(ani.chatId, sent.message_id)!.text).toContain(tx.refId);
    expect(ani.buttons({ messageId: sent.message_id })).toEqual(["🔄 Refresh status"]);

    // Nothing changed: pressing again answers without an error (same content is "not modified").
    calls = await ani.pressButton("🔄 Refresh status");
    expect(calls.find((c) => c.method === "answerCallbackQuery")!.payload.text).toBe("Status: ⏳ Processing");

    await w.clock.advance(6 * S);
    calls = await ani.pressButton("🔄 Refresh status");
    expect(calls.find((c) => c.method === "answerCallbackQuery")!.payload.text).toBe("Status: ✅ Successful");
    expect(w.fake.message(ani.chatId, sent.message_id)!.text).toContain("Successful");
    expect(ani.buttons({ messageId: sent.message_id })).toEqual(["🧾 Receipt", "💾 Save customer"]); // as the success notice offers
  });

  it("/status alone lists the open transactions as buttons (or says there are none); a QRIS checked by hand gets its caption updated", async () => {
    w = await makeWorld();
    const sari = await w.linkedUser({ languageCode: "id" });
    await sari.sendCommand("status");
    expect(sari.lastReply()).toContain("Tidak ada transaksi yang sedang diproses");

    const pre = await pendingPrepaid(w, sari.chatId, "081234567890");
    await w.clock.advance(S);
    const dep = await pendingQris(w, sari.chatId, "qrisfast", 25_000);
    await sari.sendCommand("status");
    expect(sari.lastReply()).toContain("Transaksi yang masih diproses");
    const labels = sari.buttons();
    expect(labels).toHaveLength(2);
    expect(labels[0]).toContain("QRIS"); // newest first
    expect(labels[1]).toContain("Telkomsel");

    w.sandbox.payDeposit(dep.upstreamId!);
    await sari.pressButton(/QRIS/);
    expect(sari.lastReply()).toContain("Berhasil");
    expect(w.fake.message(sari.chatId, dep.messageId!)!.caption).toContain("LUNAS");
    expect(await w.store.getTx(dep.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect((await w.store.getTx(pre.refId))!.status).toBe("pending");

    // The menu entry does the same.
    await sari.sendCommand("menu");
    await sari.pressButton("🔎 Cek status");
    expect(sari.buttons()).toHaveLength(1);
  });

  it("asks which one when several transactions share an id; says so when the provider cannot be reached", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const a = await pendingPrepaid(w, u.chatId, "081234567890");
    const b = await w.store.createTx({ refId: "TF260115SAMEID0001", chatId: u.chatId, kind: "transfer", status: "success", upstreamId: a.upstreamId, title: "BCA", target: "1234567890", amount: 10_000 });

    await u.sendCommand("status", a.upstreamId);
    expect(u.lastReply()).toContain("Several transactions");
    expect(u.buttons()).toHaveLength(2);
    await u.pressButton(/BCA/);
    expect(u.lastReply()).toContain(b.refId);

    w.sandbox.fault("/transaksi/status", "html502", 1);
    await u.sendCommand("status", a.refId);
    expect(u.lastReply()).toContain("could not be asked");
    expect(u.lastReply()).toContain("Processing");
    expect(u.buttons()).toEqual(["🔄 Refresh status"]);
  });

  it("an unknown outcome the provider does not know: says not to repeat it and where to look", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await w.store.createTx({ refId: "TP260115UNKNOWN001", chatId: u.chatId, kind: "prepaid", status: "unknown", code: "S10", target: "081234567890", amount: 10_500 });
    await u.sendCommand("status", "TP260115UNKNOWN001");
    expect(w.sandbox.calls("/transaksi/status").at(-1)!.body.id).toBe("TP260115UNKNOWN001");
    expect(u.lastReply()).toContain("Belum diketahui");
    expect(u.lastReply()).toContain("Jangan ulangi");
    expect((await w.store.getTx("TP260115UNKNOWN001"))!.status).toBe("unknown");
  });
});

describe("/status of a successful sale", () => {
  it("offers the notice's 🧾 Struk and 🔁 Beli lagi, names a PLN token a token and gives it a copy button", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "PLN20 12345678901");
    await u.pressButton("✅ Konfirmasi");
    await w.clock.advance(6 * S);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    await u.sendCommand("status", tx.refId);
    const done = (await w.store.getTx(tx.refId))!;
    expect(done.status).toBe("success");
    expect(u.lastReply()).toContain(`Token: ${done.sn}`);
    expect(u.lastReply()).not.toContain("SN/Token");
    expect(u.buttons()).toEqual(expect.arrayContaining(["🧾 Struk", "🔁 Beli lagi", "📋 Salin token"]));
    const copied = (u.findButton("📋 Salin token")!.button as { copy_text?: { text: string } }).copy_text?.text ?? "";
    expect(copied.replace(/\D/g, "")).toBe(done.sn!.replace(/\D/g, ""));
  });

  it("a paid bill's reference is labelled as such, with its own copy button", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    await u.sendText("530112340002");
    await u.pressButton(/Confirm/);
    await w.clock.advance(6 * S);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    await u.sendCommand("status", tx.refId);
    const done = (await w.store.getTx(tx.refId))!;
    expect(done.status).toBe("success");
    expect(u.lastReply()).toContain(`Bill reference: ${done.sn}`);
    expect(u.buttons()).toEqual(expect.arrayContaining(["🧾 Receipt", "📋 Copy reference"]));
  });
});
