/**
 * A downline's /deposit (docs/wallets.md "By QRIS"): Andi tops up his wallet by QRIS made with Rina's
 * key; what his wallet receives (the amount less the provider's fee) is shown before the QR, and it is
 * credited once when the deposit's status says it is paid, however many callbacks and checks arrive,
 * a late payment too. Andi sees nothing of Rina's.
 */
import { afterEach, describe, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { rupiah } from "../../src/render/format.js";
import { detailOf, type TxRecord } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { rinaAndAndi } from "./support.js";

let w: World;
afterEach(() => w.close());

const MIN = 60_000;
/** QRIS at the sandbox: 0,7% fee, so Rp50.000 brings Rp49.650. */
const CREDIT = 49_650;

async function started(): Promise<{ url: string }> {
  w = await makeWorld({ watcher: true, env: { HTTP_PORT: "0", PUBLIC_URL: "http://127.0.0.1:9" } });
  await w.app.start();
  return { url: w.app.http()!.url };
}

/** Andi: /deposit -> QRIS -> 50rb, the confirm screen, Confirm twice (a double tap). */
async function andiDeposits(andi: FakeUser): Promise<string> {
  await andi.sendCommand("deposit");
  const methods = andi.lastReply()!;
  // Only QRIS: its credit is known before the QR (no unique add-on of a bank transfer).
  expect(methods).toContain("QRIS");
  expect(methods).not.toMatch(/Virtual Account|Bank BCA/);
  await andi.pressButton(/^QRIS · /);
  await andi.sendText("50rb");
  const screen = andi.lastReply()!;
  expect(screen).toContain(`Masuk ke saldo Anda: ${rupiah(CREDIT, "id")}`);
  const confirm = andi.messages().at(-1)!.messageId;
  await andi.pressButton(/Konfirmasi/, { messageId: confirm });
  await andi.pressButton(/Konfirmasi/, { messageId: confirm }).catch(() => undefined);
  return screen;
}

async function andisDeposit(rina: FakeUser): Promise<TxRecord> {
  const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.kind === "deposit" && t.status !== "draft");
  expect(tx).toBeDefined();
  return tx!;
}

/** Every message the bot sent Andi, as sent. */
const sentToAndi = (andi: FakeUser) => w.fake.sentTo(andi.chatId).map((c) => String(c.payload.text ?? c.payload.caption ?? ""));
const creditNotices = (andi: FakeUser) => sentToAndi(andi).filter((t) => t.includes("Saldo dompet sekarang"));

describe("a downline's /deposit", () => {
  it("shows the credit before the QR, is made with the owner's key, and is credited once on double callbacks and repeated checks", async () => {
    const { url } = await started();
    const { rina, andi } = await rinaAndAndi(w);
    const { username } = await w.upstream.getProfile(w.demoKey);
    const token = `tok${rina.chatId}abcdefghijklmnopqrstu`;
    await w.store.updateChat(rina.chatId, { providerUsername: username, callbackToken: token });

    const screen = await andiDeposits(andi);
    // Nothing of Rina's: no account balance, no figure of hers.
    expect(screen).not.toMatch(/Saldo akun|Saldo:/);
    const creates = w.sandbox.calls("/deposit/create");
    expect(creates).toHaveLength(1);
    expect(creates[0]!.body).toMatchObject({ api_key: w.demoKey, nominal: "50000", metode: "qris" });
    const dep = await andisDeposit(rina);
    expect(dep).toMatchObject({ chatId: rina.chatId, by: andi.chatId, status: "pending", wallet: { chat: andi.chatId, state: "draft", price: 0, credit: CREDIT } });
    // The QR photo went to Andi, saying what his wallet receives; no instant release for him.
    const photo = w.fake.message(andi.chatId, dep.messageId!)!;
    expect(photo.caption).toContain(`Masuk ke saldo Anda: ${rupiah(CREDIT, "id")}`);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 0, held: 0, available: 0 });

    w.sandbox.payDeposit(dep.upstreamId!);
    const body = { event: "deposit", status: "processing", data: { id: dep.upstreamId, nominal: "50000", get_balance: String(CREDIT), status: "processing" } };
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${url}/provider/${token}`, { method: "POST", headers: { "content-type": "application/json", "x-atl-signature": callbackSignature(username) }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
    }
    await run(w, 1_000);
    await w.app.deps.wallets.idle();
    expect(await w.store.getTx(dep.refId)).toMatchObject({ status: "processing", wallet: { state: "posted" } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: CREDIT, held: 0, available: CREDIT });

    // Checked again and again, then settled (H+1): still once. To Andi it is done: his wallet has it, the
    // settlement is Rina's and tells him nothing, so no "still processing" and no promise of a notice.
    await andi.sendCommand("status", dep.refId);
    await andi.sendCommand("status", dep.refId);
    const status = andi.lastReply()!;
    expect(status).toContain("Status: ✅ Berhasil");
    expect(status).not.toMatch(/Masih diproses|dompet downline|mengabari/);
    await andi.sendCommand("status");
    expect(andi.lastReply()).not.toContain("QRIS");
    // "Cek status" on his QR photo answers with a toast: the same status.
    await andi.pressButton(/Cek status/, { messageId: dep.messageId! });
    expect(String(w.fake.lastCall("answerCallbackQuery")?.payload.text)).toContain("Berhasil");
    await andi.sendCommand("riwayat");
    expect(andi.lastReply()).toMatch(/QRIS · Rp50\.000 · ✅ Berhasil/);
    expect(andi.lastReply()).not.toContain("H+1");
    w.sandbox.settleDeposit(dep.upstreamId!);
    await run(w, 30 * MIN);
    await w.app.deps.wallets.idle();
    expect((await w.store.getTx(dep.refId))!.status).toBe("success");
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: CREDIT, held: 0, available: CREDIT });
    expect((await w.app.deps.wallets.entries(andi.chatId)).filter((e) => e.kind === "deposit")).toHaveLength(1);
    // Andi is told once, in one message: paid, what his wallet received, its balance now (it read like a
    // double credit as two messages). Never offered the instant release, never Rina's balance.
    const told = sentToAndi(andi).filter((t) => /Deposit dibayar|Dompet Anda bertambah <b>|Saldo dompet sekarang/.test(t));
    expect(told, told.join("\n---\n")).toHaveLength(1);
    expect(told[0]).toContain(`Deposit dibayar</b>: ${rupiah(CREDIT, "id")} masuk ke dompet Anda`);
    expect(told[0]).toContain(`Saldo dompet sekarang ${rupiah(CREDIT, "id")}`);
    // Rina hears of it once, in one line: who, and what landed in his wallet.
    const toRina = w.fake.sentTo(rina.chatId).map((c) => String(c.payload.text ?? "")).filter((t) => t.includes("Andi") && t.includes(rupiah(CREDIT, "id")));
    expect(toRina).toEqual([expect.stringContaining("dompet")]);
    expect(toRina[0]!.split("\n")).toHaveLength(1);
    const all = andi.messages().filter((m) => m.from === "bot");
    expect(all.flatMap((m) => andi.buttons({ messageId: m.messageId }))).not.toContain("⚡ Cairkan sekarang");
    expect(sentToAndi(andi).join("\n")).not.toMatch(/Saldo akun|Cairkan|H\+1/);
    await andi.sendCommand("mutasi");
    expect(andi.lastReply()).toContain(`+${rupiah(CREDIT, "id")} deposit`);

    // Rina's /riwayat shows it as Andi's deposit.
    await rina.sendCommand("riwayat");
    expect(rina.lastReply()).toContain("QRIS (ke dompet Andi)");
  });

  it("a QRIS paid late (after its expiry, within the window) is credited once", async () => {
    await started();
    const { rina, andi } = await rinaAndAndi(w);
    await andiDeposits(andi);
    const dep = await andisDeposit(rina);
    const expiresAt = detailOf(dep, "deposit").expiresAt!;
    await run(w, expiresAt - w.clock.now() + 10 * MIN);
    expect((await w.store.getTx(dep.refId))!.status).toBe("pending");
    w.sandbox.payDeposit(dep.upstreamId!);
    await run(w, 20 * MIN);
    await andi.sendCommand("status", dep.refId);
    // Settled at once rather than a simulated day (the same path; a day of sweeps is slow on PostgreSQL).
    w.sandbox.settleDeposit(dep.upstreamId!);
    await run(w, 30 * MIN);
    await w.app.deps.wallets.idle();
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: CREDIT, held: 0, available: CREDIT });
    expect((await w.app.deps.wallets.entries(andi.chatId)).filter((e) => e.kind === "deposit")).toHaveLength(1);
    expect(creditNotices(andi)).toHaveLength(1);
  });

  it("Andi cancels his own pending deposit: nothing credited; the menu's Deposit button opens the same flow", async () => {
    await started();
    const { rina, andi } = await rinaAndAndi(w);
    await andiDeposits(andi);
    const dep = await andisDeposit(rina);
    await andi.pressButton(/Batalkan deposit/, { messageId: dep.messageId! });
    await andi.pressButton(/Ya, batalkan/);
    expect((await w.store.getTx(dep.refId))!.status).toBe("cancel");
    await run(w, 2 * 60 * MIN);
    await w.app.deps.wallets.idle();
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 0, held: 0, available: 0 });

    await andi.sendCommand("menu");
    await andi.pressButton(/Deposit/);
    expect(andi.lastReply()).toContain("QRIS");
  });
});
