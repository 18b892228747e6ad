/**
 * Two bots chained over H2H (issue 38, "Done when"): Rina's bot (the upline) on the sandbox with its
 * HTTP server; Andi's own bot (the downline) with UPSTREAM_BASE_URL at Rina's `/h2h`, its H2H key linked
 * in Andi's chat as its API key, and Rina's bot calling back Andi's bot's provider-callback URL. Andi
 * works his own bot as any reseller works this bot with the provider: the price list, a top-up, a bill
 * inquiry then payment, a QRIS deposit, and the outcomes told in his chat once Rina's callbacks arrive
 * (checked against the status endpoints, as the bot does). Rina's sandbox sees each purchase and
 * deposit once, with Rina's key; his wallet at Rina's is credited once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { H2hCallbackKind } from "../../src/jobs/h2hCallbacks/outbox.js";
import { rupiah } from "../../src/render/format.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { ANDI, GOLD_MARKUP, h2hWorld } from "./support.js";

const CREATE = "/transaksi/create";
const INQUIRY = "/transaksi/tagihan";
const PAY = "/transaksi/tagihan/bayar";

let up: World;
let down: World;
let andi: FakeUser;

/** Andi's bot's callback path (from /webhook, which shows it under PUBLIC_URL). */
async function callbackPath(u: FakeUser): Promise<string> {
  await u.sendCommand("webhook");
  const path = /https?:\/\/[^/\s]+(\/provider\/[A-Za-z0-9_-]{24})/.exec(u.lastReply() ?? "")?.[1];
  if (!path) throw new Error(`no callback URL in: ${u.lastReply()}`);
  return path;
}

/**
 * Rina's bot settles what its sandbox settled and sends its callbacks; then Andi's bot takes the
 * callback and checks the status at Rina's /h2h. Each clock a second at a time until `done`.
 */
async function untilTold(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 90; i++) {
    if (done()) return;
    await run(up, 1000);
    await up.app.h2hCallbacks.whenIdle();
    await run(down, 1000);
  }
  throw new Error(`never: ${what}`);
}

beforeEach(async () => {
  // Rina's bot: her provider is the sandbox; Andi is her Gold downline with H2H on and a wallet.
  const upline = await h2hWorld({ watcher: true, funds: 1_000_000 });
  await upline.client.close();
  up = upline.w;

  // Andi's own bot: its provider is Rina's /h2h. Its own polling waits half an hour: in this test
  // only a callback makes it look.
  down = await makeWorld({ watcher: { firstCheckMs: 30 * 60_000 }, env: { HTTP_PORT: "0", UPSTREAM_BASE_URL: `${up.app.http()!.url}/h2h`, PUBLIC_URL: "https://andi.example.com" } });
  await down.app.start();
  andi = down.user({ firstName: "Andi", languageCode: "id" });
  await andi.sendCommand("start");
  await andi.sendText(upline.key);
  expect(andi.lastReply()).toContain("API key terhubung");
  expect(andi.lastReply()).toContain("Andi");
  await up.app.h2hAccess.setCallbackUrl(ANDI, `${down.app.http()!.url}${await callbackPath(andi)}`);
});

afterEach(async () => {
  await down?.close();
  await up?.close();
});

describe("two bots over H2H", () => {
  it("Andi's bot lists prices, tops up and pays a bill through Rina's bot; the outcomes come by Rina's callbacks", async () => {
    const cost = (await up.upstream.prepaidPriceList(up.demoKey, "S10"))[0]!.price;
    const price = cost + GOLD_MARKUP;

    // The price list, at Andi's price (his cost is what his wallet pays Rina).
    await andi.sendCommand("harga", "tsel 10");
    expect(andi.lastReply()).toContain("S10 Telkomsel 10.000");
    await andi.pressButton(/^Telkomsel 10\.000 ·/);
    expect(andi.lastReply()).toContain(`Harga: ${rupiah(price, "id")}`);

    // A top-up to Confirm: one purchase at Rina's provider, with Rina's key.
    await andi.pressButton("🛒 Beli");
    await andi.sendText("081234567890");
    expect(andi.lastReply()).toContain("Periksa sebelum konfirmasi");
    await andi.pressButton(/Konfirmasi/);
    expect(andi.lastReply()).toContain("Sedang diproses");
    const [topup] = (await down.store.listTxByChat(andi.chatId, { limit: 10 })).items;
    expect(topup).toMatchObject({ kind: "prepaid", status: "pending", amount: price });
    expect(up.sandbox.calls(CREATE).map((c) => c.body)).toEqual([expect.objectContaining({ api_key: up.demoKey, code: "S10", target: "081234567890", limit_price: String(cost) })]);

    // Rina's sandbox settles; her callback reaches Andi's bot, which checks and tells Andi.
    const told = () => andi.replies().some((r) => r.includes("Berhasil") && r.includes(topup!.refId));
    await untilTold(() => told(), "the top-up's success notice");
    expect((await down.store.getTx(topup!.refId))?.status).toBe("success");
    expect((await down.store.getChat(andi.chatId))?.callbacksLastAt).toBeDefined();

    // A bill: inquiry, then payment, once each at Rina's provider.
    await andi.sendCommand("tagihan");
    await andi.pressButton("PLN Pascabayar");
    await andi.sendText(SANDBOX_CUSTOMERS.oneSheet);
    expect(andi.lastReply()).toContain("Periksa sebelum konfirmasi");
    await andi.pressButton("✅ Konfirmasi");
    expect(andi.lastReply()).toContain("Pembayaran tagihan");
    const bill = (await down.store.listTxByChat(andi.chatId, { limit: 10 })).items.find((t) => t.kind === "postpaid")!;
    await untilTold(() => andi.replies().some((r) => r.includes("Berhasil") && r.includes(bill.refId)), "the bill's success notice");
    expect((await down.store.getTx(bill.refId))?.status).toBe("success");

    // Rina's provider saw each purchase once, all with Rina's key; Andi's wallet paid his prices.
    expect(up.sandbox.calls(CREATE)).toHaveLength(1);
    expect(up.sandbox.calls(INQUIRY)).toHaveLength(1);
    expect(up.sandbox.calls(PAY)).toHaveLength(1);
    for (const c of [...up.sandbox.calls(CREATE), ...up.sandbox.calls(INQUIRY), ...up.sandbox.calls(PAY)]) expect(c.body.api_key).toBe(up.demoKey);
    expect((await up.app.deps.wallets.view(ANDI)).held).toBe(0);
    // Andi's chat with Rina's bot heard nothing: his system was told by callback.
    expect(up.fake.sentTo(ANDI)).toHaveLength(0);
  });

  it("a QRIS deposit made in Andi's bot is paid in Rina's sandbox, credited to his wallet once, and his chat is told", async () => {
    const before = (await up.app.deps.wallets.view(ANDI)).balance;

    // Rina's /h2h lists her QRIS only (deposit/metode), the one deposit H2H takes.
    await andi.sendCommand("deposit");
    expect(andi.buttons().filter((b) => / · /.test(b))).toEqual([expect.stringMatching(/^QRIS · /)]);
    await andi.pressButton(/^QRIS · /);
    await andi.sendText("50rb");
    expect(andi.lastReply()).toContain("Periksa sebelum konfirmasi");
    await andi.pressButton(/Konfirmasi/);
    const mine = (await down.store.listTxByChat(andi.chatId, { limit: 10 })).items.find((t) => t.kind === "deposit")!;
    expect(mine).toMatchObject({ status: "pending", amount: 50_000 });
    // The QR Andi's bot shows is the one Rina's provider made, with Rina's key.
    const creates = up.sandbox.calls("/deposit/create");
    expect(creates).toHaveLength(1);
    expect(creates[0]!.body).toMatchObject({ api_key: up.demoKey, nominal: "50000", metode: "qris" });
    const theirs = (await up.store.getTx(mine.upstreamId!))!;
    expect(theirs).toMatchObject({ kind: "deposit", by: ANDI, clientRef: mine.refId, status: "pending" });
    const credit = theirs.wallet!.credit!;

    // The customer pays the QR at Rina's provider; Rina's bot credits Andi's wallet and tells his bot.
    up.sandbox.payDeposit(theirs.upstreamId!);
    const paidNotice = (r: string) => r.includes(`Deposit masuk: ${rupiah(credit, "id")} sudah ditambahkan ke saldo Anda`) && r.includes(mine.refId);
    await untilTold(() => andi.replies().some(paidNotice), "the deposit's paid notice");
    await up.app.deps.wallets.idle();
    expect((await up.app.deps.wallets.view(ANDI)).balance).toBe(before + credit);
    // Paid is credited for Andi (his wallet is his balance): his bot reads success, not the provider's H+1.
    expect(await down.store.getTx(mine.refId)).toMatchObject({ status: "success" });
    expect(andi.replies().join("\n")).not.toContain("H+1");
    // Rina's bot told it by the provider's deposit callback.
    const [callback] = await up.store.listDocs(H2hCallbackKind, {});
    expect(JSON.parse(callback!.value.body)).toMatchObject({ event: "deposit", status: "success", data: { id: theirs.refId, reff_id: mine.refId, get_balance: credit, status: "success" } });

    // The provider's H+1 settlement changes nothing for Andi: credited once, told once, one callback.
    up.sandbox.settleDeposit(theirs.upstreamId!);
    let settled = false;
    for (let i = 0; i < 60 && !settled; i++) {
      await run(up, 60_000);
      await up.app.h2hCallbacks.whenIdle();
      await run(down, 60_000);
      settled = (await up.store.getTx(theirs.refId))?.status === "success";
    }
    expect(settled).toBe(true);
    await untilTold(() => false, "nothing more").catch(() => undefined);
    await up.app.deps.wallets.idle();
    expect(await up.store.listDocs(H2hCallbackKind, {})).toHaveLength(1);
    expect(andi.replies().filter(paidNotice)).toHaveLength(1);
    expect((await up.app.deps.wallets.entries(ANDI)).filter((e) => e.kind === "deposit")).toHaveLength(1);
    expect((await up.app.deps.wallets.view(ANDI)).balance).toBe(before + credit);
    expect(up.sandbox.calls("/deposit/create")).toHaveLength(1);
    // His chat with Rina's bot hears of the credit as of any credit to his wallet, once.
    expect(up.fake.sentTo(ANDI).map((c) => String(c.payload.text))).toEqual([expect.stringContaining(`Dompet Anda bertambah <b>${rupiah(credit, "id")}</b>`)]);
  });
});
