/**
 * The Bot API emulator as the playground's bot reaches it: real HTTP through grammY's Api with
 * apiRoot (TELEGRAM_API_ROOT), Telegram's limits and errors, uploads kept for the page, and the
 * change events the page follows. The emulator's other rules: test/harness/fakeBotApi.test.ts.
 */
import { Api, InputFile } from "grammy";
import QRCode from "qrcode";
import { afterEach, describe, expect, it } from "vitest";
import { FakeBotApi, imageSize, type EmulatorEvent, type FakeServer } from "../support/fakeBotApi.js";
import { FAKE_BOT_TOKEN } from "../../src/playground/botInfo.js";
import { createEmulator } from "../../src/playground/index.js";
import { viewHtml } from "../../src/playground/view.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(clock?: () => number) {
  const fake = createEmulator(clock);
  server = await fake.startServer();
  const api = new Api(FAKE_BOT_TOKEN, { apiRoot: server.apiRoot });
  const events: EmulatorEvent[] = [];
  fake.onChange((e) => events.push(e));
  return { fake, api, events, apiRoot: server.apiRoot };
}

describe("the emulator over HTTP", () => {
  it("refuses what Telegram refuses: long texts and captions, big callback data, bad HTML, edits that change nothing", async () => {
    const { api } = await setup();
    await expect(api.sendMessage(1, "x".repeat(4096))).resolves.toMatchObject({ text: "x".repeat(4096) });
    await expect(api.sendMessage(1, "x".repeat(4097))).rejects.toMatchObject({ error_code: 400, description: "Bad Request: message is too long" });
    const png = await QRCode.toBuffer("x");
    await expect(api.sendPhoto(1, new InputFile(png, "qr.png"), { caption: "c".repeat(1025) })).rejects.toMatchObject({
      description: "Bad Request: message caption is too long",
    });
    const keyboard = (data: string) => ({ reply_markup: { inline_keyboard: [[{ text: "OK", callback_data: data }]] } });
    await expect(api.sendMessage(1, "a", keyboard("d".repeat(64)))).resolves.toBeDefined();
    await expect(api.sendMessage(1, "a", keyboard("d".repeat(65)))).rejects.toMatchObject({ description: "Bad Request: BUTTON_DATA_INVALID" });
    await expect(api.sendMessage(1, "Rp10.000 <b>saldo", { parse_mode: "HTML" })).rejects.toMatchObject({
      error_code: 400,
      description: expect.stringContaining("can't parse entities"),
    });
    const m = await api.sendMessage(1, "<b>Saldo</b>", { parse_mode: "HTML" });
    await expect(api.editMessageText(1, m.message_id, "<b>Saldo</b>", { parse_mode: "HTML" })).rejects.toMatchObject({
      description: expect.stringContaining("message is not modified"),
    });
    await expect(api.answerCallbackQuery("q1", { text: "t".repeat(201) })).rejects.toMatchObject({ description: "Bad Request: MESSAGE_TOO_LONG" });
  });

  it("answers 429 with retry_after beyond 30 messages a second per bot, and takes them again a second later", async () => {
    let now = 1_000_000;
    const { api } = await setup(() => now);
    for (let i = 0; i < 30; i++) await api.sendMessage(100 + i, `m${i}`);
    await expect(api.sendMessage(200, "one too many")).rejects.toMatchObject({
      error_code: 429,
      parameters: { retry_after: 1 },
    });
    now += 1_000;
    await expect(api.sendMessage(200, "one too many")).resolves.toBeDefined();
  });

  it("keeps uploaded photos and documents (multipart) for the page, and serves them to getFile downloads", async () => {
    const { fake, api, apiRoot } = await setup();
    const png = await QRCode.toBuffer("00020101021226");
    const photo = await api.sendPhoto(7, new InputFile(png, "qris.png"), { caption: "<b>QRIS</b>", parse_mode: "HTML" });
    expect(fake.message(7, photo.message_id)?.file?.bytes.equals(png)).toBe(true);
    const csv = Buffer.from("tanggal,produk,harga\n2026-11-01,S10,10500\n");
    const doc = await api.sendDocument(7, new InputFile(csv, "riwayat-2026-11.csv"));
    expect(doc.document).toMatchObject({ file_name: "riwayat-2026-11.csv", file_size: csv.length });
    expect(fake.message(7, doc.message_id)?.file).toMatchObject({ filename: "riwayat-2026-11.csv" });
    const file = await api.getFile(doc.document.file_id);
    const download = await fetch(`${apiRoot}/file/bot${FAKE_BOT_TOKEN}/${file.file_path}`);
    expect(Buffer.from(await download.arrayBuffer()).equals(csv)).toBe(true);
  });

  it("a photo the user sent: its file_id (any size) sends the same bytes again, in sendPhoto and sendMediaGroup; getFile downloads it", async () => {
    const { fake, api, apiRoot } = await setup();
    const png = await QRCode.toBuffer("promo", { width: 400 });
    const sizes = fake.storeUserPhoto(png);
    const big = sizes.at(-1)!;
    // Width and height come from the image's header, as Telegram reports them.
    expect(big).toMatchObject({ width: png.readUInt32BE(16), height: png.readUInt32BE(20), file_size: png.length });
    expect(sizes.length).toBeGreaterThan(1);
    const user = fake.pushUpdate({
      message: { message_id: 1, date: 0, chat: { id: 9, type: "private", first_name: "Admin" }, from: { id: 9, is_bot: false, first_name: "Admin" }, photo: sizes, caption: "Promo" },
    });
    expect(fake.message(9, user.message!.message_id)?.file?.bytes.equals(png)).toBe(true);

    const again = await api.sendPhoto(7, big.file_id, { caption: "Promo" });
    expect(again.photo.at(-1)).toMatchObject({ file_id: big.file_id, width: big.width, height: big.height });
    expect(fake.message(7, again.message_id)?.file?.bytes.equals(png)).toBe(true);
    const [grouped] = await api.sendMediaGroup(8, [{ type: "photo", media: sizes[0]!.file_id }]);
    expect(fake.message(8, grouped!.message_id)?.file?.bytes.equals(png)).toBe(true);

    const file = await api.getFile(big.file_id);
    const download = await fetch(`${apiRoot}/file/bot${FAKE_BOT_TOKEN}/${file.file_path}`);
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
  });

  it("reads a JPEG's width and height from its frame header", () => {
    // SOI, an APP0 segment, then SOF0 with height 480 and width 640.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
      0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 640, height: 480 });
    expect(new FakeBotApi().storeUserPhoto(jpeg).at(-1)).toMatchObject({ width: 640, height: 480 });
    expect(imageSize(Buffer.from("not an image"))).toBeUndefined();
  });

  it("tells a viewer each change: sent, edited, deleted, the toast or alert of a callback answer, the command list", async () => {
    const { fake, api, events } = await setup();
    const m = await api.sendMessage(5, "Menunggu");
    await api.editMessageText(5, m.message_id, "Berhasil");
    await api.deleteMessage(5, m.message_id);
    await api.answerCallbackQuery("q9", { text: "Memproses…" });
    await api.answerCallbackQuery("q10", { text: "Stok kosong", show_alert: true });
    await api.answerCallbackQuery("q11");
    await api.setMyCommands([{ command: "saldo", description: "Cek saldo" }], { scope: { type: "all_private_chats" }, language_code: "id" });
    await api.setMyCommands([{ command: "balance", description: "Balance" }], { scope: { type: "all_private_chats" } });
    const seen = events.map((e) =>
      e.type === "message" ? `${e.message.text}${e.message.edited ? " (edited)" : ""}${e.message.deleted ? " (deleted)" : ""}` : e.type === "callbackAnswer" ? `${e.callbackQueryId}:${e.text ?? ""}:${e.showAlert}` : e.type,
    );
    expect(seen).toEqual([
      "Menunggu",
      "Berhasil (edited)",
      "Berhasil (edited) (deleted)",
      "q9:Memproses…:false",
      "q10:Stok kosong:true",
      "q11::false",
      "commands",
      "commands",
    ]);
    // The menu a chat shows follows its language, like Telegram's scope resolution.
    expect(fake.commandsFor("id").map((c) => c.command)).toEqual(["saldo"]);
    expect(fake.commandsFor("en").map((c) => c.command)).toEqual(["balance"]);
  });
});

describe("message text as the page shows it", () => {
  it("keeps Telegram's formatting and nothing else", () => {
    expect(viewHtml("<b>Saldo</b>: <code>Rp1.000</code> &lt;b&gt;", "HTML")).toBe("<b>Saldo</b>: <code>Rp1.000</code> &lt;b&gt;");
    expect(viewHtml('<strong>a</strong><em>b</em><tg-spoiler>c</tg-spoiler><span class="tg-spoiler">d</span>', "HTML")).toBe(
      '<b>a</b><i>b</i><span class="spoiler">c</span><span class="spoiler">d</span>',
    );
    expect(viewHtml('<a href="https://pay.example/x?a=1&amp;b=2">Bayar</a>', "HTML")).toBe(
      '<a href="https://pay.example/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">Bayar</a>',
    );
    // A link to script is shown as text; entities that decode to markup stay text.
    expect(viewHtml('<a href="javascript:alert(1)">x</a>', "HTML")).toBe("<span>x</span>");
    expect(viewHtml("&lt;img src=x onerror=alert(1)&gt;", "HTML")).toBe("&lt;img src=x onerror=alert(1)&gt;");
    expect(viewHtml("<b>plain</b> & <i>", undefined)).toBe("&lt;b&gt;plain&lt;/b&gt; &amp; &lt;i&gt;");
  });
});

describe("the emulator's saved chats", () => {
  it("a restart reads back the chats, their edit times and the files: an old file_id still sends its photo, a new one does not reuse it", async () => {
    let now = Date.UTC(2026, 0, 15, 3, 0, 0);
    const { fake, api } = await setup(() => now);
    const png = await QRCode.toBuffer("saved", { width: 120 });
    const sent = await api.sendPhoto(1001, new InputFile(png, "qr.png"), { caption: "QR" });
    now += 90_000;
    await api.editMessageCaption(1001, sent.message_id, { caption: "QR (batal)" });
    const saved = JSON.parse(JSON.stringify(fake.saveChats())) as ReturnType<typeof fake.saveChats>;
    await server?.close();

    const { fake: again, api: api2 } = await setup(() => now);
    again.restoreChats(saved);
    const [photo] = again.visibleMessages(1001);
    expect([photo?.caption, photo?.message.edit_date, photo?.file?.bytes.equals(png)]).toEqual(["QR (batal)", Math.floor(now / 1000), true]);
    const fileId = sent.photo.at(-1)!.file_id;
    const resent = await api2.sendPhoto(1001, fileId);
    expect(resent.message_id).toBe(sent.message_id + 1);
    expect(again.fileBytes(resent.photo.at(-1)!.file_id)?.equals(png)).toBe(true);
    const other = await api2.sendPhoto(1001, new InputFile(await QRCode.toBuffer("other", { width: 120 }), "b.png"));
    expect(other.photo.at(-1)!.file_id).not.toBe(fileId);
  });
});
