/**
 * Downlines that invite (docs/wallets.md "Prices" 4, "Commission" 5), through the built bot: Rina lets
 * Andi invite, Andi invites Budi, Budi buys from his wallet at Andi's price plus Andi's markup; Budi's
 * wallet is debited once, Andi's credited his markup once, Rina's margin is what it was, and Budi never
 * reads Andi's price. Beyond 3 levels an invitation is refused; a downline not allowed cannot invite.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "grammy/types";
import { rupiah } from "../../src/render/format.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { forgedButton, lastCallbackAnswer } from "../staff/support.js";
import { applyMarkup } from "../../src/domain/pricing.js";

const CREATE = "/transaksi/create";
/** Gold's default markup, and a downline's default markup for its own downlines. */
const GOLD_MARKUP = 1000;
const DOWNLINE_MARKUP = 500;

let w: World;
beforeEach(async () => {
  w = await makeWorld({ watcher: true });
});
afterEach(() => w.close());

async function costOf(code: string): Promise<number> {
  const list = await w.app.upstream.prepaidPriceList(w.demoKey, code);
  return list.find((p) => p.code === code)!.price;
}

function tokenIn(text: string | undefined): string {
  const token = /start=dl_([A-Za-z0-9_-]+)/.exec(text ?? "")?.[1];
  expect(token, text).toBeDefined();
  return token!;
}

async function allowInvite(rina: FakeUser, name: string): Promise<void> {
  await rina.sendCommand("downline");
  await rina.pressButton(new RegExp(name));
  await rina.pressButton(/Boleh mengundang/);
}

/** `upline` (a downline allowed to invite) invites a new chat `name`, which joins. */
async function inviteBelow(upline: FakeUser, name: string): Promise<FakeUser> {
  const joiner = w.user({ firstName: name, languageCode: "id" });
  await upline.sendCommand("downline");
  await upline.pressButton(/Undang downline/);
  await joiner.sendCommand("start", `dl_${tokenIn(upline.lastReply())}`);
  return joiner;
}

async function fund(rina: FakeUser, name: string, amount: number): Promise<void> {
  await rina.sendCommand("downline");
  await rina.pressButton(new RegExp(name));
  await rina.pressButton(/Tambah saldo/);
  const prompt = rina.messages().at(-1)!;
  await rina.sendMessage({ text: `${amount} tunai`, reply_to_message: w.fake.message(rina.chatId, prompt.messageId)!.message as Message as never });
  await rina.pressButton(/Konfirmasi/, { messageId: rina.messages().at(-1)!.messageId });
}

async function rinaAndAndi(): Promise<{ rina: FakeUser; andi: FakeUser }> {
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
  const andi = w.user({ firstName: "Andi", languageCode: "id" });
  await rina.sendCommand("downline");
  await rina.pressButton(/Undang downline Gold/);
  await andi.sendCommand("start", `dl_${tokenIn(rina.lastReply())}`);
  return { rina, andi };
}

describe("downlines that invite", () => {
  it("a two-level chain: the sub-downline pays its upline's price plus the upline's markup, debited once; the upline is credited its markup once; the owner's margin is unchanged", async () => {
    const { rina, andi } = await rinaAndAndi();
    await allowInvite(rina, "Andi");
    expect(andi.lastReply()).toContain("mengizinkan Anda mengundang");
    await andi.sendCommand("downline");
    expect(andi.lastReply()).toContain(`Markup Anda untuk downline: ${"+" + rupiah(DOWNLINE_MARKUP, "id")}`);
    const budi = await inviteBelow(andi, "Budi");
    expect(budi.lastReply()).toContain("downline dari Andi");
    expect(andi.lastReply()).toContain("Budi bergabung sebagai downline Anda");
    // Rina sees the whole tree; Andi sees his own only.
    await rina.sendCommand("downline");
    expect(rina.lastReply()).toContain("↳ Budi · via Andi");
    await andi.sendCommand("downline");
    expect(andi.lastReply()).toContain("Budi");

    await fund(rina, "Budi", 30_000);
    const cost = await costOf("S10");
    const andiPrice = cost + GOLD_MARKUP;
    const budiPrice = andiPrice + DOWNLINE_MARKUP;
    await budi.sendCommand("harga", "S10");
    expect(budi.replies().join("\n")).not.toContain(rupiah(andiPrice, "id"));
    await budi.sendCommand("beli", "S10");
    await budi.sendText("081234567890");
    const screen = budi.lastReply()!;
    expect(screen).toContain(`Dari dompet Anda: ${rupiah(budiPrice, "id")}`);
    expect(screen).toContain(`Harga jual: ${rupiah(budiPrice, "id")}`);
    expect(screen).not.toContain(rupiah(andiPrice, "id"));
    expect(screen).not.toContain(rupiah(cost, "id"));
    const confirm = budi.messages().at(-1)!.messageId;
    await budi.pressButton(/Konfirmasi/, { messageId: confirm });
    await budi.pressButton(/Konfirmasi/, { messageId: confirm }).catch(() => undefined);
    const calls = w.sandbox.calls(CREATE);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ api_key: w.demoKey, limit_price: String(cost) });

    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    await w.app.deps.wallets.reconcile();
    const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.by === budi.chatId && t.status !== "cancel")!;
    expect(tx).toMatchObject({ status: "success", sale: { price: andiPrice, profit: GOLD_MARKUP }, wallet: { chat: budi.chatId, price: budiPrice, state: "posted" } });
    expect(await w.app.deps.wallets.view(budi.chatId)).toEqual({ balance: 30_000 - budiPrice, held: 0, available: 30_000 - budiPrice });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: DOWNLINE_MARKUP, held: 0, available: DOWNLINE_MARKUP });
    const andiEntries = await w.app.deps.wallets.entries(andi.chatId);
    expect(andiEntries.filter((e) => e.kind === "commission")).toHaveLength(1);
    // Budi's success notice and receipt: his price, never Andi's.
    expect(budi.replies().join("\n")).not.toContain(rupiah(andiPrice, "id"));
    await andi.sendCommand("mutasi");
    expect(andi.lastReply()).toContain(`+${rupiah(DOWNLINE_MARKUP, "id")} komisi`);

    // A markup change counts from the next purchase.
    await andi.sendCommand("downline", "markup 700");
    expect(andi.lastReply()).toContain(`+${rupiah(700, "id")}`);
    await budi.sendCommand("beli", "S10");
    await budi.sendText("081234567891");
    expect(budi.lastReply()).toContain(`Dari dompet Anda: ${rupiah(andiPrice + 700, "id")}`);
  });

  it("an invitation beyond 3 levels below the owner is refused; a downline not allowed cannot invite", async () => {
    const { rina, andi } = await rinaAndAndi();
    await andi.sendCommand("downline");
    expect(andi.lastReply()).toContain("hanya untuk pemilik jaringan dan downline yang diizinkan");
    await andi.deliver(forgedButton(w, andi, "dl:n:0"));
    expect(lastCallbackAnswer(w)).toContain("hanya untuk pemilik jaringan dan downline yang diizinkan");
    expect(andi.lastReply()).not.toContain("start=dl_");

    await allowInvite(rina, "Andi");
    const budi = await inviteBelow(andi, "Budi");
    await allowInvite(rina, "Budi");
    const citra = await inviteBelow(budi, "Citra");
    expect(citra.lastReply()).toContain("downline dari Budi");
    await allowInvite(rina, "Citra");
    await citra.sendCommand("downline");
    await citra.pressButton(/Undang downline/);
    expect(citra.lastReply()).toContain("paling dalam 3 tingkat");
    expect(citra.lastReply()).not.toContain("start=dl_");
    // Andi acts on his own only: not on Citra (Budi's).
    await andi.deliver(forgedButton(w, andi, `dl:o:${citra.chatId}`));
    expect(andi.lastReply()).not.toContain("Citra");
    expect(lastCallbackAnswer(w)).not.toBe("");
  });

  it("a downline's own selling prices (/markup, /hargajual) are on its receipts and its price list, never what it pays", async () => {
    const { rina, andi } = await rinaAndAndi();
    await fund(rina, "Andi", 30_000);
    const cost = await costOf("S10");
    const price = cost + GOLD_MARKUP;
    const resale = applyMarkup(price, { flat: 2000 });
    await andi.sendCommand("markup", "2000");
    expect(andi.lastReply()).toContain("Rp2.000");
    // Stored on Andi's chat, never Rina's.
    expect((await w.store.getChat(rina.chatId))?.pricing).toBeUndefined();
    await andi.sendCommand("harga", "S10");
    const list = andi.replies().join("\n");
    expect(list).toContain(rupiah(resale, "id"));
    expect(list).not.toContain(rupiah(cost, "id"));

    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    const screen = andi.lastReply()!;
    expect(screen).toContain(`Harga jual: ${rupiah(resale, "id")}`);
    expect(screen).toContain(`Dari dompet Anda: ${rupiah(price, "id")}`);
    await andi.pressButton(/Konfirmasi/);
    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.by === andi.chatId && t.status === "success")!;
    // Rina's sale is what it was: Andi's level price and her margin.
    expect(tx).toMatchObject({ sale: { price, profit: GOLD_MARKUP }, wallet: { price, resale, state: "posted" } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000 - price, held: 0, available: 30_000 - price });
    // The receipt Andi hands his customer: his selling price.
    await andi.pressButton(/Struk/).catch(() => undefined);
    const receipts = andi.messages().filter((m) => m.from === "bot" && m.text?.includes(tx.refId)).map((m) => m.text ?? "");
    expect(receipts.join("\n")).toContain(rupiah(resale, "id"));
    expect(receipts.join("\n")).not.toContain(rupiah(price, "id") + "\n");

    // A fixed price for one product.
    await andi.sendCommand("hargajual", "S10 15000");
    expect(andi.lastReply()).toContain(rupiah(15_000, "id"));
    expect(andi.lastReply()).not.toContain(rupiah(cost, "id"));
  });
});
