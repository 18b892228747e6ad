/**
 * H2H access from Telegram (docs/h2h.md "Access"), through the built bot: Rina turns "Akses H2H" on
 * on Andi's card; Andi's /h2h shows the base URL, makes a key shown once (a new one retires the old at
 * once), sets the caller IPs and the callback URL; Rina's /audit records the switch, the keys and the IPs.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { rinaAndAndi } from "./support.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld({ env: { HTTP_PORT: "0", PUBLIC_URL: "https://bot.example.com" } });
});
afterEach(() => w.close());

const keyIn = (text: string | undefined) => /^([A-Za-z0-9_-]{43})$/m.exec(text ?? "")?.[1];

describe("/h2h and the owner's switch", () => {
  it("the owner turns it on per downline; the downline makes its key, IPs and callback URL; the audit keeps each", async () => {
    const { rina, andi } = await rinaAndAndi(w);
    await andi.sendCommand("h2h");
    expect(andi.lastReply()).toContain("belum diaktifkan upline");

    await rina.sendCommand("downline");
    await rina.pressButton(/^Andi/);
    expect(rina.lastReply()).toContain("Akses H2H: nonaktif");
    await rina.pressButton(/Akses H2H/);
    expect(rina.lastReply()).toContain("Akses H2H: aktif");
    expect(andi.replies().join("\n")).toContain("mengaktifkan akses H2H");

    await andi.sendCommand("h2h");
    const screen = andi.lastReply()!;
    expect(screen).toContain("https://bot.example.com/h2h");
    expect(screen).toContain("Key: belum dibuat");
    const screenId = andi.messages().at(-1)!.messageId;
    await andi.pressButton(/Buat key baru/);
    const first = keyIn(andi.lastReply());
    expect(first, andi.lastReply()).toBeDefined();
    // The key message ends with what to do next; the screen it was made from no longer says "no key".
    expect(andi.lastReply()).toMatch(/\/h2h ip[^]*\/h2h callback/);
    const shown = w.fake.message(andi.chatId, screenId)!.text ?? "";
    expect(shown).toContain("Key: aktif, dibuat");
    expect(shown).not.toContain(first!);
    // An unknown subcommand answers with the usage, not the screen again.
    await andi.sendCommand("h2h", "foo");
    expect(andi.lastReply()).toContain("foo");
    expect(andi.lastReply()).toMatch(/\/h2h ip[^]*\/h2h callback/);
    expect(andi.lastReply()).not.toContain("Akses H2H</b>");
    expect(await w.app.h2hAccess.authenticate(first!)).toMatchObject({ chat: andi.chatId, owner: rina.chatId });
    await andi.sendCommand("h2h");
    expect(andi.lastReply()).not.toContain(first!);
    expect(andi.lastReply()).toContain("Key: aktif, dibuat");
    expect(andi.lastReply()).not.toContain("WIB WIB");
    await andi.pressButton(/Buat key baru/);
    const second = keyIn(andi.lastReply());
    expect(second).not.toBe(first);
    expect(await w.app.h2hAccess.authenticate(first!)).toBeUndefined();
    expect(await w.app.h2hAccess.authenticate(second!)).toMatchObject({ chat: andi.chatId });

    await andi.sendCommand("h2h", "ip 203.0.113.9 bukan-ip");
    expect(andi.lastReply()).toContain("bukan-ip");
    await andi.sendCommand("h2h", `ip ${Array.from({ length: 11 }, (_, i) => `203.0.113.${i + 1}`).join(" ")}`);
    expect(andi.lastReply()).toContain("10");
    expect((await w.app.h2hAccess.view(andi.chatId))?.ips).toEqual([]);
    await andi.sendCommand("h2h", "ip 203.0.113.9, 127.0.0.1");
    expect((await w.app.h2hAccess.view(andi.chatId))?.ips).toEqual(["203.0.113.9", "127.0.0.1"]);
    await andi.sendCommand("h2h", "callback http://example.com/cb");
    expect(andi.lastReply()).toContain("https");
    await andi.sendCommand("h2h", "callback https://andi.example.com/cb");
    await andi.sendCommand("h2h");
    expect(andi.lastReply()).toContain("203.0.113.9, 127.0.0.1");
    expect(andi.lastReply()).toContain("https://andi.example.com/cb");

    await rina.sendCommand("audit");
    const log = rina.lastReply()!;
    expect(log).toContain("key H2H dibuat");
    expect(log).toContain("key H2H lama dinonaktifkan");
    expect(log).toContain("daftar IP H2H diubah");
    expect(log).toContain("h2h on");

    // Off: the key stops, and /h2h says the owner must turn it on.
    await rina.sendCommand("downline");
    await rina.pressButton(/^Andi/);
    await rina.pressButton(/Akses H2H/);
    expect(await w.app.h2hAccess.authenticate(second!)).toBeUndefined();
    await andi.sendCommand("h2h");
    expect(andi.lastReply()).toContain("belum diaktifkan upline");
  });

  it("is not the owner's or a stranger's command", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    await rina.sendCommand("h2h");
    expect(rina.lastReply()).toContain("untuk downline");
  });
});
