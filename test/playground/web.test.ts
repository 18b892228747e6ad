/**
 * The playground as the page uses it, without a browser: the real app polling the emulator over
 * HTTP, the page's JSON API and its live event stream. Real time (the app runs on the system
 * clock as under `npm start`); each wait is for a reply, bounded by expect.poll.
 */
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputFile } from "grammy";
import QRCode from "qrcode";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { startPlayground, type Playground } from "../../src/playground/index.js";
import type { MessageView } from "../../src/playground/view.js";
import type { BotContext } from "../../src/bot/context.js";
import { startPayment } from "../../src/bot/shop/shopPay.js";

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function playground(opts: { dataDir?: string; reset?: boolean; say?: (line: string) => void } = {}): Promise<Playground> {
  let dataDir = opts.dataDir;
  if (dataDir === undefined) {
    const dir = await mkdtemp(join(tmpdir(), "playground-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    dataDir = dir;
  }
  const pg = await startPlayground({ dataDir, port: 0, logger: silentLogger, settleMs: 10 * 60_000, say: opts.say ?? (() => undefined), ...(opts.reset ? { reset: true } : {}) });
  cleanup.push(() => pg.stop());
  return pg;
}

const post = async (pg: Playground, path: string, body: unknown) => {
  const res = await fetch(new URL(path, pg.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const chat = async (pg: Playground, user: number) =>
  (await (await fetch(new URL(`api/chat/${user}`, pg.url))).json()) as { messages: MessageView[]; commands: { command: string }[] };
const say = (pg: Playground, user: number, text: string) => post(pg, `api/chat/${user}/send`, { text });
/** What the reader sees of a message (the page's markup removed). */
const seen = (m: MessageView | undefined) => (m?.html ?? "").replace(/<[^>]+>/g, "");
/** Waits for the chat's newest bot message to show `text`; returns it. */
async function botSays(pg: Playground, user: number, text: string | RegExp): Promise<MessageView> {
  let last: MessageView | undefined;
  await expect
    .poll(async () => {
      last = (await chat(pg, user)).messages.filter((m) => m.from === "bot").at(-1);
      return seen(last);
    }, { timeout: 10_000 })
    .toMatch(text);
  return last!;
}

/** Rina buys S10 and confirms; returns the sale's reference once the sandbox panel lists it pending. */
async function pendingSale(pg: Playground): Promise<string> {
  await say(pg, 1001, "/beli S10 081234567890");
  const confirm = await botSays(pg, 1001, "Periksa sebelum konfirmasi");
  await post(pg, "api/chat/1001/press", { messageId: confirm.id, data: confirm.keyboard.flat().find((b) => b.text.includes("Konfirmasi"))!.data });
  await botSays(pg, 1001, "Diproses");
  let refId = "";
  await expect.poll(async () => (refId = ((await (await fetch(new URL("api/sandbox", pg.url))).json()) as { pending: { refId: string }[] }).pending[0]?.refId ?? ""), { timeout: 10_000 }).not.toBe("");
  return refId;
}

describe("the playground's page API", () => {
  it("serves the page, and each user's chat answers as that user: linked reseller, new user, admin", async () => {
    const pg = await playground();
    const page = await fetch(pg.url);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    expect((await fetch(new URL("app.js", pg.url))).status).toBe(200);
    expect((await fetch(new URL("style.css", pg.url))).status).toBe(200);
    // The tab's icon: the browser asks for /favicon.ico whatever the page links.
    const icon = await fetch(new URL("favicon.ico", pg.url));
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);

    await say(pg, 1001, "/start");
    await botSays(pg, 1001, "Akun Anda sudah terhubung");
    await say(pg, 1002, "/start");
    await botSays(pg, 1002, "kirim API key Anda");
    await say(pg, 1003, "/admin");
    await botSays(pg, 1003, "Perintah admin");
    // The newcomer is no admin: the admin command does nothing for them.
    await say(pg, 1002, "/ceksaldo");
    await say(pg, 1002, "/bantuan");
    await botSays(pg, 1002, "❓ Bantuan");
    expect((await chat(pg, 1002)).messages.map(seen).join("\n")).not.toContain("Mengecek saldo");
    expect((await chat(pg, 1001)).messages.map(seen).join("\n")).not.toContain("Saldo Anda");
    // The README's way for the newcomer to link: the sandbox key it names.
    type Users = { users: { id: number; linked: boolean; lang: string }[]; newcomerKey: string };
    const users = async () => (await (await fetch(new URL("api/users", pg.url))).json()) as Users;
    // The page's first-visit hint names the key a newcomer pastes.
    const { newcomerKey } = await users();
    expect(newcomerKey).toBe("SANDBOX-KEY-NEW");
    // Dewi (Rina's cashier), Sari (a customer of Rina's shop) and Andi (her downline) have no key of their own.
    expect((await users()).users.map((u) => u.linked)).toEqual([true, false, true, false, false, false]);
    await say(pg, 1002, newcomerKey);
    await botSays(pg, 1002, "API key terhubung");
    expect(await pg.app.store.getApiKey(1002)).toBe(newcomerKey);
    // A linked newcomer is shown linked from then on.
    expect((await users()).users.find((u) => u.id === 1002)?.linked).toBe(true);
    // The hint's one-tap example sale reaches its confirm screen: the key's balance pays for it.
    await say(pg, 1002, "/beli S10 081234567890");
    const confirm = await botSays(pg, 1002, /Periksa sebelum konfirmasi|Saldo tidak cukup/);
    expect(seen(confirm)).toContain("Periksa sebelum konfirmasi");
  });

  it("Rina's shop sells above cost from the first start, so her first shop order shows a profit", async () => {
    const pg = await playground();
    await say(pg, 1001, "/markup");
    const rules = await botSays(pg, 1001, "Harga jual toko Anda");
    expect(seen(rules)).toContain("Semua produk: +Rp2.000");
  });

  it("an admin's balance round arrives live in the other linked chat, over the event stream", async () => {
    const pg = await playground();
    const events = await fetch(new URL("api/events", pg.url));
    const reader = events.body!.getReader();
    cleanup.push(() => reader.cancel());
    let text = "";
    const readUntil = async (pattern: RegExp) => {
      const decoder = new TextDecoder();
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil(/event: hello/);
    await say(pg, 1003, "/ceksaldo");
    await readUntil(/event: message\ndata: \{[^\n]*"chatId":1001,"from":"bot"[^\n]*Saldo Anda/);
    const reseller = await botSays(pg, 1001, "Saldo Anda");
    expect(reseller.html).toContain("Rp1.000.000");
  });

  it("buttons: a tap edits the message in place; only a button the message carries can be tapped", async () => {
    const pg = await playground();
    await say(pg, 1001, "/beli");
    const menu = await botSays(pg, 1001, /.+/);
    const pulsa = menu.keyboard.flat().find((b) => b.text.includes("Pulsa"))!;
    expect((await post(pg, "api/chat/1001/press", { messageId: menu.id, data: pulsa.data })).status).toBe(200);
    await expect.poll(async () => seen((await chat(pg, 1001)).messages.find((m) => m.id === menu.id)), { timeout: 10_000 }).toContain("provider");
    const edited = (await chat(pg, 1001)).messages.find((m) => m.id === menu.id)!;
    expect(edited.edited).toBe(true);
    expect((await post(pg, "api/chat/1001/press", { messageId: menu.id, data: "made-up" })).status).toBe(400);
    expect((await post(pg, "api/chat/1002/press", { messageId: menu.id, data: pulsa.data })).status).toBe(400);
  });

  it("the ID/EN switch: the command menu and the bot's answers follow the language", async () => {
    const pg = await playground();
    expect((await chat(pg, 1001)).commands.map((c) => c.command)).toContain("saldo");
    const switched = await post(pg, "api/chat/1001/lang", { lang: "en" });
    expect((switched.body.commands as { command: string }[]).map((c) => c.command)).toContain("balance");
    expect((await chat(pg, 1001)).commands.map((c) => c.command)).not.toContain("saldo");
    await say(pg, 1001, "/start");
    await botSays(pg, 1001, "Your account is linked");
    expect((await post(pg, "api/chat/1001/lang", { lang: "fr" })).status).toBe(400);
  });

  it("/bahasa in the chat: the page follows the bot's language (its words, the command menu)", async () => {
    const pg = await playground();
    await say(pg, 1001, "/bahasa");
    const ask = await botSays(pg, 1001, /.+/);
    const english = ask.keyboard.flat().find((b) => /English/.test(b.text))!;
    await post(pg, "api/chat/1001/press", { messageId: ask.id, data: english.data });
    await botSays(pg, 1001, /English/);
    const now = (await (await fetch(new URL("api/chat/1001", pg.url))).json()) as { user: { lang: string }; commands: { command: string }[] };
    expect(now.user.lang).toBe("en");
    expect(now.commands.map((c) => c.command)).toContain("balance");
  });

  it("photos are served as images, documents as a download with their name", async () => {
    const pg = await playground();
    const png = await QRCode.toBuffer("00020101");
    const photo = await pg.app.bot.api.sendPhoto(1001, new InputFile(png, "qris.png"));
    const doc = await pg.app.bot.api.sendDocument(1001, new InputFile(Buffer.from("a,b\n1,2\n"), "riwayat.csv"));
    const views = (await chat(pg, 1001)).messages;
    expect(views.find((m) => m.id === photo.message_id)?.file).toEqual({ name: "qris.png", image: true });
    expect(views.find((m) => m.id === doc.message_id)?.file).toEqual({ name: "riwayat.csv", image: false });
    const img = await fetch(new URL(`api/file/1001/${photo.message_id}`, pg.url));
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
    const csv = await fetch(new URL(`api/file/1001/${doc.message_id}`, pg.url));
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="riwayat.csv"');
    expect(await csv.text()).toBe("a,b\n1,2\n");
  });

  it("the attach button: a PNG or JPEG up to 5 MB with its caption shows on the user's side; anything else is refused", async () => {
    const pg = await playground();
    const photo = (user: number, data: Buffer, caption?: string) =>
      post(pg, `api/chat/${user}/photo`, { data: data.toString("base64"), ...(caption !== undefined ? { caption } : {}) });
    const notImage = await photo(1001, Buffer.from("tanggal,produk\n"));
    expect(notImage).toEqual({ status: 415, body: { error: "PNG or JPEG images only" } });
    const png = await QRCode.toBuffer("promo", { width: 300 });
    const huge = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    expect(await photo(1001, huge)).toEqual({ status: 413, body: { error: "a photo of at most 5 MB" } });
    // Far past the cap: refused before the body is read in full.
    expect((await photo(1001, Buffer.alloc(8 * 1024 * 1024, 1))).status).toBe(413);
    const form = await fetch(new URL("api/chat/1001/photo", pg.url), { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
    expect(form.status).toBe(415);
    expect((await chat(pg, 1001)).messages).toEqual([]);

    const sent = await photo(1001, png, "Bukti transfer");
    expect(sent.status).toBe(200);
    const mine = (await chat(pg, 1001)).messages.find((m) => m.id === sent.body.messageId)!;
    expect(mine).toMatchObject({ from: "user", kind: "photo", file: { image: true } });
    expect(seen(mine)).toBe("Bukti transfer");
    const img = await fetch(new URL(`api/file/1001/${mine.id}`, pg.url));
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
  });

  it("an admin's /siaran photo from the page arrives as that photo with its caption in the other linked chats", async () => {
    const pg = await playground();
    const png = await QRCode.toBuffer("promo pulsa", { width: 300 });
    await say(pg, 1003, "/siaran");
    await botSays(pg, 1003, "Siaran");
    expect((await post(pg, "api/chat/1003/photo", { data: png.toString("base64"), caption: "Promo pulsa hari ini" })).status).toBe(200);
    const confirm = await botSays(pg, 1003, "Pratinjau di atas");
    // The preview is the admin's own photo, sent back by its file_id.
    const preview = (await chat(pg, 1003)).messages.filter((m) => m.from === "bot" && m.kind === "photo").at(-1)!;
    expect(seen(preview)).toBe("Promo pulsa hari ini");
    const send = confirm.keyboard.flat().find((b) => b.text.includes("Kirim"))!;
    expect((await post(pg, "api/chat/1003/press", { messageId: confirm.id, data: send.data })).status).toBe(200);

    let copy: MessageView | undefined;
    await expect
      .poll(async () => (copy = (await chat(pg, 1001)).messages.find((m) => m.from === "bot" && m.kind === "photo")), { timeout: 10_000 })
      .toBeDefined();
    expect(seen(copy)).toBe("Promo pulsa hari ini");
    expect(copy!.file?.image).toBe(true);
    const img = await fetch(new URL(`api/file/1001/${copy!.id}`, pg.url));
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
    // Budi has not linked a key: no copy for him.
    expect((await chat(pg, 1002)).messages).toEqual([]);
  });

  it("the sandbox panel: a pending deposit is listed and the customer pays it; the provider can be made slow", async () => {
    const pg = await playground();
    await say(pg, 1001, "/deposit");
    await botSays(pg, 1001, "QRIS");
    await say(pg, 1001, "qris");
    const methods = await botSays(pg, 1001, /.+/);
    const qris = methods.keyboard.flat().find((b) => /^QRIS · /.test(b.text))!;
    await post(pg, "api/chat/1001/press", { messageId: methods.id, data: qris.data });
    await botSays(pg, 1001, "Minimal");
    await say(pg, 1001, "50000");
    const confirm = await botSays(pg, 1001, "Metode: QRIS");
    const ok = confirm.keyboard.flat().find((b) => b.text.includes("Konfirmasi"))!;
    await post(pg, "api/chat/1001/press", { messageId: confirm.id, data: ok.data });
    type Pending = { refId: string; kind: string; status: string };
    const pending = async () => ((await (await fetch(new URL("api/sandbox", pg.url))).json()) as { pending: Pending[] }).pending;
    await expect.poll(async () => (await pending()).map((p) => `${p.kind}:${p.status}`), { timeout: 10_000 }).toEqual(["deposit:pending"]);
    const [deposit] = await pending();
    expect((await post(pg, "api/sandbox/settle", { refId: deposit!.refId, outcome: "success" })).body).toEqual({ ok: false });
    expect((await post(pg, "api/sandbox/pay", { refId: deposit!.refId })).body).toEqual({ ok: true });
    // The watcher sees the payment and tells the chat.
    await expect
      .poll(async () => (await chat(pg, 1001)).messages.map(seen).join("\n"), { timeout: 15_000 })
      .toMatch(/Pembayaran deposit diterima|Deposit masuk/);
    // The record leaves "pending" in the write after the notice (docs: the notice protocol's step 3).
    await expect.poll(async () => (await pending()).map((p) => `${p.kind}:${p.status}`), { timeout: 10_000 }).not.toContain("deposit:pending");

    expect((await post(pg, "api/sandbox/latency", { ms: 3000 })).body).toEqual({ ok: true });
    expect(((await (await fetch(new URL("api/sandbox", pg.url))).json()) as { latencyMs: number }).latencyMs).toBe(3000);
    expect((await post(pg, "api/sandbox/latency", { ms: -1 })).status).toBe(400);
  }, 30_000);

  it("the sandbox panel says who pays what, and a paid deposit waiting for settlement can be settled now", async () => {
    const pg = await playground();
    type Pending = { refId: string; chatId: number; kind: string; status: string; payer?: number; order?: { customer: number; product: string } };
    const pending = async () => ((await (await fetch(new URL("api/sandbox", pg.url))).json()) as { pending: Pending[] }).pending;
    // Sari's order in Rina's shop: its QR is recorded on Rina's key, but Sari is the one who pays it.
    const ctx = {
      deps: pg.app.deps,
      lang: "id",
      chat: { id: 1005, type: "private" },
      reply: (text: string, other?: object) => pg.app.bot.api.sendMessage(1005, text, other),
      replyWithPhoto: (photo: never, other?: object) => pg.app.bot.api.sendPhoto(1005, photo, other),
    } as unknown as BotContext;
    await startPayment(ctx, {
      owner: 1001, customer: 1005, customerName: "Sari", productCode: "S10", productName: "Telkomsel 10.000", target: "081234567890",
      price: 12_600, cost: 10_500, fee: 88, feePayer: "customer", lang: "id",
    });
    await expect.poll(async () => (await pending()).find((p) => p.kind === "deposit")?.status, { timeout: 10_000 }).toBe("pending");
    const shopQr = (await pending()).find((p) => p.kind === "deposit")!;
    expect(shopQr).toMatchObject({ chatId: 1001, payer: 1005, order: { customer: 1005, product: "Telkomsel 10.000" } });

    // Rina's own deposit: she pays it herself.
    await say(pg, 1001, "/deposit");
    await botSays(pg, 1001, "QRIS");
    await say(pg, 1001, "qris");
    const methods = await botSays(pg, 1001, /.+/);
    await post(pg, "api/chat/1001/press", { messageId: methods.id, data: methods.keyboard.flat().find((b) => /^QRIS · /.test(b.text))!.data });
    await botSays(pg, 1001, "Minimal");
    await say(pg, 1001, "50000");
    const confirm = await botSays(pg, 1001, "Metode: QRIS");
    await post(pg, "api/chat/1001/press", { messageId: confirm.id, data: confirm.keyboard.flat().find((b) => b.text.includes("Konfirmasi"))!.data });
    await expect.poll(async () => (await pending()).filter((p) => p.kind === "deposit").map((p) => p.status), { timeout: 10_000 }).toEqual(["pending", "pending"]);
    const rinas = (await pending()).find((p) => p.kind === "deposit" && p.refId !== shopQr.refId)!;
    expect(rinas.payer).toBe(1001);
    expect(rinas.order).toBeUndefined();

    // Paid: QRIS settles the next working day. The panel can settle it now; then it leaves the list.
    expect((await post(pg, "api/sandbox/pay", { refId: rinas.refId })).body).toEqual({ ok: true });
    await expect.poll(async () => (await pending()).find((p) => p.refId === rinas.refId)?.status, { timeout: 15_000 }).toBe("processing");
    expect((await post(pg, "api/sandbox/settle", { refId: rinas.refId, outcome: "success" })).body).toEqual({ ok: true });
    await expect.poll(async () => (await pending()).some((p) => p.refId === rinas.refId), { timeout: 15_000 }).toBe(false);
    expect((await pg.app.store.getTx(rinas.refId))?.status).toBe("success");
    // A deposit is never "failed" from the panel.
    expect((await post(pg, "api/sandbox/settle", { refId: shopQr.refId, outcome: "failed" })).body).toEqual({ ok: false });
  }, 40_000);

  it("only this machine's browser drives it: no form posts from other sites, no other host names", async () => {
    const pg = await playground();
    const form = await fetch(new URL("api/chat/1001/send", pg.url), { method: "POST", headers: { "content-type": "text/plain" }, body: '{"text":"/saldo"}' });
    expect(form.status).toBe(415);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(new URL("api/users", pg.url), { headers: { host: "attacker.example:3000" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
    expect((await chat(pg, 1001)).messages).toEqual([]);
  });

  it("a restart goes on where it stopped: the pending sale settles from the panel, its notice arrives, the chat shows the old messages and the balance stays spent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "playground-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const first = await playground({ dataDir: dir });
    await say(first, 1001, "/beli S10 081234567890");
    const confirm = await botSays(first, 1001, "Periksa sebelum konfirmasi");
    const ok = confirm.keyboard.flat().find((b) => b.text.includes("Konfirmasi"))!;
    await post(first, "api/chat/1001/press", { messageId: confirm.id, data: ok.data });
    type Pending = { refId: string; kind: string };
    const pending = async (pg: Playground) => ((await (await fetch(new URL("api/sandbox", pg.url))).json()) as { pending: Pending[] }).pending;
    await expect.poll(async () => (await pending(first)).map((p) => p.kind), { timeout: 10_000 }).toEqual(["prepaid"]);
    await botSays(first, 1001, "Diproses");
    const before = (await chat(first, 1001)).messages.map(seen);
    await first.stop();

    const again = await playground({ dataDir: dir });
    expect((await chat(again, 1001)).messages.map(seen)).toEqual(before);
    expect(again.app.sandbox!.balance("DEMO-PPOB-SANDBOX-2026")).toBe(1_000_000 - 10_500);
    const [purchase] = await pending(again);
    expect(purchase?.kind).toBe("prepaid");
    expect(await post(again, "api/sandbox/settle", { refId: purchase!.refId, outcome: "success" })).toEqual({ status: 200, body: { ok: true } });
    await expect.poll(async () => (await chat(again, 1001)).messages.map(seen).join("\n"), { timeout: 10_000 }).toContain("Transaksi berhasil");
    await expect.poll(async () => (await pending(again)).length, { timeout: 10_000 }).toBe(0);
    // New messages go on after the old ones.
    const ids = (await chat(again, 1001)).messages.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  }, 30_000);

  it("Settle is told at once: the sandbox calls the linked chat back (no wait for the watcher's next check)", async () => {
    const pg = await playground();
    const refId = await pendingSale(pg);
    await post(pg, "api/sandbox/settle", { refId, outcome: "success" });
    await expect.poll(async () => (await chat(pg, 1001)).messages.map(seen).join("\n"), { timeout: 10_000, interval: 50 }).toContain("Transaksi berhasil");
    // Before, the callback found no signed link and the notice waited for a check 5 s apart (3.4-4 s).
    // The accepted callback is what makes the watcher check at once; no wall-clock bound (a loaded
    // machine would fail it), the 200 fails on that old code all the same.
    expect(pg.app.sandbox!.callbacksSent().map((c) => c.answer)).toContain(200);
  }, 30_000);

  it("a chat that blocks the bot gets nothing while blocked; the missed success arrives when it unblocks", async () => {
    const pg = await playground();
    const refId = await pendingSale(pg);
    expect(await post(pg, "api/chat/1001/block", { blocked: true })).toEqual({ status: 200, body: { ok: true, blocked: true } });
    const users = async () => ((await (await fetch(new URL("api/users", pg.url))).json()) as { users: { id: number; blocked: boolean }[] }).users;
    expect((await users()).find((u) => u.id === 1001)?.blocked).toBe(true);
    // The bot hears of the block, then its notice is refused (403): the chat is marked away.
    await expect.poll(async () => (await pg.app.store.getChat(1001))?.inactive, { timeout: 10_000 }).toBe(true);
    const callbacks = pg.app.sandbox!.callbacksSent().length;
    await post(pg, "api/sandbox/settle", { refId, outcome: "success" });
    // The provider calls back whether or not the chat blocked the bot (its URL is the reseller's).
    await expect.poll(() => pg.app.sandbox!.callbacksSent().slice(callbacks).map((c) => c.answer), { timeout: 10_000 }).toContain(200);
    await expect.poll(async () => (await pg.app.store.getTx(refId))?.watch?.owed, { timeout: 10_000 }).toBe("success");
    expect((await chat(pg, 1001)).messages.map(seen).join("\n")).not.toContain("Transaksi berhasil");
    expect((await post(pg, "api/chat/1001/block", { blocked: false })).body).toEqual({ ok: true, blocked: false });
    await expect.poll(async () => (await chat(pg, 1001)).messages.map(seen).join("\n"), { timeout: 10_000 }).toContain("Transaksi berhasil");
    expect((await post(pg, "api/chat/1001/block", { blocked: "yes" })).status).toBe(400);
  }, 30_000);

  it("keeps its folder across starts; reset starts empty", async () => {
    const dir = await mkdtemp(join(tmpdir(), "playground-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const first = await playground({ dataDir: dir });
    await first.app.store.updateChat(1002, { lang: "en" });
    await first.stop();
    const again = await playground({ dataDir: dir });
    expect((await again.app.store.getChat(1002))?.lang).toBe("en");
    await again.stop();
    const lines: string[] = [];
    const fresh = await playground({ dataDir: dir, reset: true, say: (l) => lines.push(l) });
    expect(lines).toEqual([expect.stringMatching(/^Playground reset: wiped .*chat windows.*balances/)]);
    expect(await fresh.app.store.getChat(1002)).toBeUndefined();
    // The seeded chats are linked again.
    expect(await fresh.app.store.getApiKey(1001)).toBeDefined();
  });
});
