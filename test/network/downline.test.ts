/**
 * A reseller's network through the built bot (docs/wallets.md): Rina invites Andi as a Gold downline,
 * funds his wallet by hand, and Andi buys with Rina's key from his wallet at his level's price, debited
 * exactly once; a refused purchase sends nothing, a failed one gives the hold back, and Andi reaches
 * nothing of Rina's.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import type { Message } from "grammy/types";
import { makeWorld, type World } from "../support/world.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { UpstreamRejected } from "../../src/upstream/errors.js";
import { ENDPOINTS } from "../../src/upstream/endpoints.js";
import { run } from "../jobs/support.js";
import { costOf as costOfIn, CREATE, fund, GOLD_MARKUP, joinAs, rinaAndAndi } from "./support.js";
import type { FakeUser } from "../support/chat.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld({ watcher: true });
});
afterEach(() => w.close());

function lastAlert(): string {
  return String(w.fake.callsOf("answerCallbackQuery").at(-1)?.payload.text ?? "");
}

const costOf = (code: string) => costOfIn(w, code);

describe("a downline", () => {
  it("joins by a one-person link, is funded by hand once, and buys at its level's price from its wallet, debited once", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    const cost = await costOf("S10");
    const price = cost + GOLD_MARKUP;
    // Joining says how the wallet gets money: the upline, or his own /deposit.
    const joined = andi.replies().find((r) => r.includes("Anda sekarang downline"))!;
    expect(joined).toContain("/deposit");

    // An empty wallet: refused up front, nothing sent; he may top it up himself.
    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    expect(andi.lastReply()).toContain("Saldo dompet kurang");
    expect(andi.lastReply()).toContain("/deposit");
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);

    await fund(w, rina, "Andi", 50_000);
    expect(andi.lastReply()).toContain(`Dompet Anda bertambah ${rupiah(50_000, "id")}`);
    await andi.sendCommand("saldo");
    expect(andi.lastReply()).toContain(`Saldo: ${rupiah(50_000, "id")}`);
    expect(andi.lastReply()).not.toContain("Saldo akun");

    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    const screen = andi.lastReply()!;
    expect(screen).toContain(`Harga jual: ${rupiah(price, "id")}`);
    expect(screen).toContain(`Dari dompet Anda: ${rupiah(price, "id")}, ditahan sampai hasilnya jelas`);
    // Never the owner's cost, profit or balance.
    expect(screen).not.toMatch(/modal|Untung|Saldo:/i);
    const confirm = andi.messages().at(-1)!.messageId;
    await andi.pressButton(/Konfirmasi/, { messageId: confirm });
    await andi.pressButton(/Konfirmasi/, { messageId: confirm }).catch(() => undefined);
    const calls = w.sandbox.calls(CREATE);
    expect(calls).toHaveLength(1);
    // With the owner's key, and limit_price = the owner's cost.
    expect(calls[0]!.body).toMatchObject({ api_key: w.demoKey, limit_price: String(cost) });
    const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.status !== "cancel");
    expect(tx).toMatchObject({ by: andi.chatId, sale: { price, profit: GOLD_MARKUP }, wallet: { chat: andi.chatId, price, level: 1 } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 50_000, held: price, available: 50_000 - price });

    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    expect((await w.store.getTx(tx!.refId))?.status).toBe("success");
    // The success notice reaches Andi with his price, never Rina's cost or margin.
    const notice = andi.replies().join("\n");
    expect(notice).toContain("Berhasil");
    expect(notice).not.toMatch(/modal|Untung/i);
    // It names the wallet: the price taken from it, and what is left.
    expect(notice).toContain(`Dibayar dari dompet Anda: ${rupiah(price, "id")}. Sisa dompet: ${rupiah(50_000 - price, "id")}`);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 50_000 - price, held: 0, available: 50_000 - price });
    await andi.sendCommand("mutasi");
    expect(andi.lastReply()).toContain(`−${rupiah(price, "id")} pembelian`);
    expect(andi.lastReply()).toContain(`+${rupiah(50_000, "id")} oleh upline · tunai`);
    // Rina sees him with his wallet, and what the network's wallets hold.
    await rina.sendCommand("downline");
    expect(rina.lastReply()).toContain(`• Andi · Gold · saldo ${rupiah(50_000 - price, "id")} (ditahan Rp0)`);
    expect(rina.lastReply()).toContain(`Dompet downline berisi ${rupiah(50_000 - price, "id")}`);
    // Her /saldo says what of her balance is her downlines' money.
    await rina.sendCommand("saldo");
    expect(rina.lastReply()).toContain(`Dompet downline: ${rupiah(50_000 - price, "id")} (1 downline), bagian dari saldo ini.`);
  });

  it("the target prompt offers a downline its own recent numbers, never the owner's or another downline's", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 50_000);
    await rina.sendCommand("beli", "S10 081234567001");
    await rina.pressButton(/Konfirmasi/);
    await andi.sendCommand("beli", "S10 081234567002");
    await andi.pressButton(/Konfirmasi/);
    await andi.sendCommand("beli", "S10");
    expect(andi.buttons().join(" ")).toContain("081234567002");
    expect(andi.buttons().join(" ")).not.toContain("081234567001");
  });

  it("saved customers: a downline's prompt and /pelanggan offer its own, never the owner's or another downline's", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    const budi = await joinAs(w, rina, "Budi");
    await fund(w, rina, "Andi", 50_000);
    await fund(w, rina, "Budi", 50_000);
    /** `u` sells S10 to `target`, and once it succeeds saves the number as `name`. */
    const sellAndSave = async (u: FakeUser, target: string, name: string) => {
      await u.sendCommand("beli", `S10 ${target}`);
      await u.pressButton(/Konfirmasi/);
      await run(w, 10_000);
      await w.app.deps.wallets.idle();
      const notice = u.messages().filter((m) => m.text?.includes("Berhasil") && m.text.includes(target)).at(-1);
      expect(notice, u.replies().join("\n---\n")).toBeDefined();
      await u.pressButton(/Simpan pelanggan/, { messageId: notice!.messageId });
      await u.sendText(name);
      expect(u.lastReply()).toContain(`disimpan sebagai ${name}`);
    };
    await sellAndSave(rina, "081234567001", "Pak Joko");
    await sellAndSave(budi, "081234567003", "Bu Sri");
    await sellAndSave(andi, "081234567002", "Warung Andi");

    await andi.sendCommand("beli", "S10");
    const offered = andi.buttons().join(" ");
    expect(offered).toContain("Warung Andi");
    expect(offered).not.toMatch(/Pak Joko|081234567001|Bu Sri|081234567003/);
    await andi.sendCommand("batal");
    await andi.sendCommand("pelanggan");
    expect(andi.lastReply()).toContain("Warung Andi");
    expect(andi.lastReply()).not.toMatch(/Pak Joko|Bu Sri/);
    // The owner's list is hers alone, as before.
    await rina.sendCommand("pelanggan");
    expect(rina.lastReply()).toContain("Pak Joko");
    expect(rina.lastReply()).not.toMatch(/Warung Andi|Bu Sri/);
  });

  it("a failed purchase gives the hold back; a level change counts from the next purchase", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 30_000);
    const cost = await costOf("S10");
    await andi.sendCommand("beli", "S10");
    await andi.sendText("081200000000"); // the sandbox fails a target ending in 0000
    await andi.pressButton(/Konfirmasi/);
    expect((await w.app.deps.wallets.view(andi.chatId)).held).toBe(cost + GOLD_MARKUP);
    const failed = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.target === "081200000000")!;
    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    expect(await w.store.getTx(failed.refId)).toMatchObject({ status: "failed", wallet: { state: "released" } });
    // The failure notice says the hold is back, and what the wallet has.
    expect(andi.replies().join("\n")).toContain(`${rupiah(cost + GOLD_MARKUP, "id")} kembali ke dompet Anda. Sisa dompet: ${rupiah(30_000, "id")}`);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: 0, available: 30_000 });

    await rina.sendCommand("downline");
    await rina.pressButton(/Andi/);
    await rina.pressButton(/Jadikan Platinum/);
    expect(andi.lastReply()).toContain("Level Anda sekarang Platinum");
    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    expect(andi.lastReply()).toContain(`Harga jual: ${rupiah(cost + 500, "id")}`);
  });

  it("by hand: bad input says how and changes nothing; taking more than available is refused; removal only with an empty wallet", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 10_000);
    await rina.sendCommand("downline");
    await rina.pressButton(/Andi/);
    await rina.pressButton(/Ambil saldo/);
    const prompt = rina.messages().at(-1)!;
    await rina.sendMessage({ text: "banyak sekali", reply_to_message: w.fake.message(rina.chatId, prompt.messageId)!.message as Message as never });
    expect(rina.lastReply()).toContain("Tulis jumlah lalu alasan");
    const retype = rina.messages().at(-1)!;
    // More than the wallet holds: refused at the amount, with what it holds, and asked again (no confirm screen).
    await rina.sendMessage({ text: "999999 koreksi", reply_to_message: w.fake.message(rina.chatId, retype.messageId)!.message as Message as never });
    expect(rina.lastReply()).toContain("Dompet Andi hanya berisi Rp10.000");
    expect(rina.lastReply()).toContain("Dompet tidak berubah");
    expect(rina.lastReply()).not.toContain("ditahan");
    expect(rina.buttons()).not.toContain("✅ Konfirmasi");
    const again = rina.messages().at(-1)!;
    // A new question to answer: the app replies to it.
    expect(JSON.stringify(w.fake.callsOf("sendMessage").at(-1)!.payload.reply_markup)).toContain('"force_reply":true');
    await rina.sendMessage({ text: "4000 koreksi", reply_to_message: w.fake.message(rina.chatId, again.messageId)!.message as Message as never });
    expect(rina.lastReply()).toContain("Ambil Rp4.000 dari dompet Andi?");
    // The confirm screen has its way out, as every other.
    expect(rina.buttons()).toEqual(["✅ Konfirmasi", "❌ Batal"]);
    const screen = rina.messages().at(-1)!.messageId;
    await rina.pressButton(/Batal/, { messageId: screen });
    expect(w.fake.message(rina.chatId, screen)!.message.text).toContain("Dibatalkan. Dompet Andi tidak berubah");
    expect(rina.buttons({ messageId: screen })).toEqual([]);
    expect(await w.app.deps.wallets.view(andi.chatId)).toMatchObject({ balance: 10_000 });
    await rina.sendCommand("downline");
    await rina.pressButton(/Andi/);
    await rina.pressButton(/Hapus/);
    expect(lastAlert()).toContain("Dompet masih berisi saldo");
    expect(await w.app.deps.network.member(rina.chatId, andi.chatId)).toBeDefined();
  });

  it("by hand: a badly formed answer is asked again in a new question to reply to, with what to write", async () => {
    const { rina } = await rinaAndAndi(w);
    await rina.sendCommand("downline");
    await rina.pressButton(/Andi/);
    await rina.pressButton(/Tambah saldo/);
    const prompt = rina.messages().at(-1)!;
    for (const bad of ["banyak sekali", "0 tunai", "500000000 tunai"]) {
      const sent = w.fake.callsOf("sendMessage").length;
      const asked = rina.messages().at(-1)!;
      await rina.sendMessage({ text: bad, reply_to_message: w.fake.message(rina.chatId, asked.messageId)!.message as Message as never });
      const answer = w.fake.callsOf("sendMessage").slice(sent);
      expect(answer).toHaveLength(1);
      expect(String(answer[0]!.payload.text)).toContain("Tulis jumlah lalu alasan");
      expect(String(answer[0]!.payload.text)).toContain("Balas pesan ini");
      expect(JSON.stringify(answer[0]!.payload.reply_markup)).toContain('"force_reply":true');
    }
    const again = rina.messages().at(-1)!;
    expect(again.messageId).not.toBe(prompt.messageId);
    await rina.sendMessage({ text: "5000 tunai", reply_to_message: w.fake.message(rina.chatId, again.messageId)!.message as Message as never });
    expect(rina.lastReply()).toContain(`Tambah ${rupiah(5_000, "id")} ke dompet Andi?`);
    expect(rina.buttons()).toEqual(["✅ Konfirmasi", "❌ Batal"]);
  });

  it("by hand: a wallet spent between the amount and Confirm is refused on the screen itself, its button gone", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 20_000);
    await rina.sendCommand("downline");
    await rina.pressButton(/Andi/);
    await rina.pressButton(/Ambil saldo/);
    const prompt = rina.messages().at(-1)!;
    await rina.sendMessage({ text: "15000 koreksi", reply_to_message: w.fake.message(rina.chatId, prompt.messageId)!.message as Message as never });
    const screen = rina.messages().at(-1)!.messageId;
    // Andi buys meanwhile: his price is held until the provider answers.
    await andi.sendCommand("beli", "S10 081234567890");
    await andi.pressButton(/Konfirmasi/);
    const { available } = await w.app.deps.wallets.view(andi.chatId);
    expect(available).toBeLessThan(15_000);
    await rina.pressButton(/Konfirmasi/, { messageId: screen });
    expect(lastAlert()).toContain(`yang bisa diambil hanya ${rupiah(available, "id")}`);
    expect(w.fake.message(rina.chatId, screen)!.message.text).toContain(`yang bisa diambil hanya ${rupiah(available, "id")}`);
    expect(rina.buttons({ messageId: screen })).toEqual([]);
    expect(await w.app.deps.wallets.view(andi.chatId)).toMatchObject({ balance: 20_000 });
  });

  it("by hand: taking from an empty wallet says so at once and asks nothing more", async () => {
    const { rina } = await rinaAndAndi(w);
    await rina.sendCommand("downline");
    await rina.pressButton(/Andi/);
    await rina.pressButton(/Ambil saldo/);
    const prompt = rina.messages().at(-1)!;
    const sent = w.fake.callsOf("sendMessage").length;
    await rina.sendMessage({ text: "1000 koreksi", reply_to_message: w.fake.message(rina.chatId, prompt.messageId)!.message as Message as never });
    expect(rina.lastReply()).toContain("Dompet Andi tidak punya saldo yang bisa diambil (berisi Rp0, ditahan untuk transaksi berjalan Rp0). Dompet tidak berubah.");
    expect(JSON.stringify(w.fake.callsOf("sendMessage").slice(sent).map((c) => c.payload.reply_markup ?? null))).not.toContain("force_reply");
  });

  it("the owner is warned on /saldo when the provider balance no longer covers what the wallets hold", async () => {
    const { rina } = await rinaAndAndi(w);
    const balance = w.sandbox.balance(w.demoKey);
    await w.app.deps.wallets.adjust({ ref: "BIG", owner: rina.chatId, wallet: (await w.app.deps.network.members(rina.chatId))[0]!.chat, amount: balance + 1_000, reason: "x", by: rina.chatId });
    await rina.sendCommand("saldo");
    expect(rina.lastReply()).toContain(`⚠️ Dompet downline berisi ${rupiah(balance + 1_000, "id")}, lebih dari saldo ini`);
  });

  it("the owner's balance short: the downline is told without the owner's figures, its wallet untouched, the owner told once", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 30_000);
    w.sandbox.setBalance(w.demoKey, 1_000);
    const toldBefore = rina.messages().length;
    for (let i = 0; i < 2; i++) {
      await andi.sendCommand("beli", "S10");
      await andi.sendText("081234567890");
      expect(andi.lastReply()).toContain("Saldo upline Anda sedang tidak cukup");
      expect(andi.lastReply()).not.toMatch(/Rp/);
    }
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: 0, available: 30_000 });
    const told = rina.messages().slice(toldBefore).filter((m) => m.from === "bot" && m.text?.includes("Downline Andi tidak bisa membeli"));
    expect(told).toHaveLength(1);
  });

  it("the provider refusing at create for the owner's balance: the hold back, the downline told without figures, the owner once", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 30_000);
    const toldBefore = rina.messages().length;
    // The screen is made while the balance covers it; the balance runs low before the tap.
    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    const confirm = andi.messages().at(-1)!.messageId;
    w.sandbox.setBalance(w.demoKey, 1_000);
    await andi.pressButton(/Konfirmasi/, { messageId: confirm });
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.status !== "cancel")!;
    expect(tx).toMatchObject({ status: "failed", wallet: { state: "released" } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: 0, available: 30_000 });
    // The same words as the refusal up front, none of Rina's figures.
    expect(andi.lastReply()).toContain("Saldo upline Anda sedang tidak cukup");
    expect(andi.lastReply()).not.toMatch(/Rp/);
    expect(andi.replies().join("\n")).not.toMatch(/mencukupi|Ditolak/i);
    // Again (now refused up front): Rina is told once.
    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    expect(andi.lastReply()).toContain("Saldo upline Anda sedang tidak cukup");
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    const told = rina.messages().slice(toldBefore).filter((m) => m.from === "bot" && m.text?.includes("Downline Andi tidak bisa membeli"));
    expect(told).toHaveLength(1);
    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: 0, available: 30_000 });
    expect(await w.app.deps.wallets.entries(andi.chatId)).toHaveLength(1);
  });

  it("a bill the provider refuses for the owner's balance: the downline reads the upline-short words, none of the owner's figures", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await fund(w, rina, "Andi", 500_000);
    await andi.sendCommand("tagihan");
    await andi.pressButton(/^PLN Pascabayar$/);
    await andi.sendText(SANDBOX_CUSTOMERS.oneSheet);
    const confirm = andi.messages().at(-1)!.messageId;
    // The provider's own words for it vary; this one names the owner's balance in a way only the bill's explanation reads.
    const upstream = w.app.deps.upstream;
    upstream.billPay = () => Promise.reject(new UpstreamRejected(ENDPOINTS.billPay, "Saldo deposit Anda Rp1.000, kurang untuk tagihan ini"));
    await andi.pressButton(/Konfirmasi/, { messageId: confirm });
    const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.kind === "postpaid" && t.status !== "cancel")!;
    expect(tx).toMatchObject({ status: "failed", wallet: { state: "released" } });
    expect(andi.lastReply()).toContain("Saldo upline Anda sedang tidak cukup");
    expect(andi.lastReply()).not.toMatch(/Rp/);
    expect(andi.replies().join("\n")).not.toMatch(/Rp1\.000\.000|sedangkan tagihan|kurang untuk|Isi saldo lewat \/deposit|Ditolak/);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 500_000, held: 0, available: 500_000 });
  });

  it("reaches nothing of the owner's: money out, settings, the owner's screens and buttons (its /deposit is its wallet's: downlineDeposit.test.ts)", async () => {
    const { andi } = await rinaAndAndi(w);
    for (const command of ["transfer", "kunci", "downline", "staf", "toko", "pesanan", "audit"]) {
      await andi.sendCommand(command);
      expect(andi.lastReply(), command).toMatch(/Hanya pemilik|hanya untuk|Hanya/);
    }
    expect(w.sandbox.calls().filter((c) => /transfer/.test(c.path))).toEqual([]);
  });
});
