/**
 * /webhook: the chat's own provider callback URL, how to paste it, a new URL on demand;
 * without PUBLIC_URL it says callbacks are off and status comes by polling.
 */
import { afterEach, describe, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { makeWorld, type World } from "../support/world.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const PUBLIC = "https://bot.example.com";

async function started(publicUrl?: string): Promise<{ w: World; url: string }> {
  w = await makeWorld({ env: { HTTP_PORT: "0", ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}) } });
  await w.app.start();
  return { w, url: w.app.http()!.url };
}

const callback = { event: "transaksi", status: "success", data: { reff_id: "PR000000000000", id: "x" } };
async function post(base: string, path: string, signature: string, body: unknown = callback): Promise<number> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-atl-signature": signature },
    body: JSON.stringify(body),
  });
  return res.status;
}

describe("/webhook", () => {
  it("linking through the bot saves the signing username; /webhook shows this chat's URL and three steps; a new URL retires the old one", async () => {
    const { w, url } = await started(PUBLIC);
    const budi = w.user({ firstName: "Budi", languageCode: "id" });
    await budi.sendCommand("start");
    await budi.sendText(w.demoKey);
    expect(budi.lastReply()).toContain("API key terhubung");
    const { username } = await w.upstream.getProfile(w.demoKey);
    expect((await w.store.getChat(budi.chatId))!.providerUsername).toBe(username);
    const signature = callbackSignature(username);

    await budi.sendCommand("webhook");
    const shown = budi.lastReply()!;
    const path = /https:\/\/bot\.example\.com(\/provider\/[A-Za-z0-9_-]{24})/.exec(shown)?.[1];
    expect(path).toBeDefined();
    expect(shown).toMatch(/1\. .*\n2\. .*\n3\. /);
    expect(shown).toContain("Callback: belum ada yang masuk");
    // The URL works on this server (PUBLIC_URL is its public face).
    expect(await post(url, path!, signature)).toBe(200);

    await budi.pressButton(/Buat URL baru/);
    const renewed = budi.lastReply()!;
    const newPath = /https:\/\/bot\.example\.com(\/provider\/[A-Za-z0-9_-]{24})/.exec(renewed)?.[1];
    expect(newPath).toBeDefined();
    expect(newPath).not.toBe(path);
    expect(await post(url, path!, signature)).toBe(404);
    expect(await post(url, newPath!, signature)).toBe(200);

    // A stray callback proves nothing; one about this chat's own purchase shows the URL works.
    await budi.sendCommand("webhook");
    expect(budi.lastReply()).toContain("Callback: belum ada yang masuk");
    await budi.sendCommand("beli", "S10 081234567890");
    await budi.pressButton(/Konfirmasi/);
    const [tx] = (await w.store.listTxByChat(budi.chatId)).items;
    expect(await post(url, newPath!, signature, { ...callback, data: { reff_id: tx!.refId, id: tx!.upstreamId } })).toBe(200);
    await budi.sendCommand("webhook");
    expect(budi.lastReply()).toMatch(/Callback: berfungsi, terakhir \d{2}\.\d{2} WIB/);
    expect(budi.lastReply()).toContain(newPath!);
  });

  it("speaks English to English chats", async () => {
    const { w } = await started(PUBLIC);
    const ann = await w.linkedUser({ languageCode: "en" });
    await ann.sendCommand("webhook");
    expect(ann.lastReply()).toContain("Your account's callback URL");
    expect(ann.lastReply()).toContain("Callbacks: none received yet");
    expect(ann.buttons()).toEqual(["🔁 New URL"]);
  });

  it("without PUBLIC_URL: callbacks are off, status comes by polling; /saldo has no callbacks line", async () => {
    const { w } = await started();
    const budi = await w.linkedUser({ languageCode: "id" });
    await budi.sendCommand("webhook");
    expect(budi.lastReply()).toContain("tidak aktif");
    expect(budi.lastReply()).toContain("dicek otomatis secara berkala");
    expect(budi.buttons()).toEqual([]);
    await budi.sendCommand("saldo");
    expect(budi.lastReply()).not.toContain("Callback");
  });

  it("needs a linked key, like the other commands", async () => {
    const { w } = await started(PUBLIC);
    const stranger = w.user({ languageCode: "id" });
    await stranger.sendCommand("webhook");
    expect(stranger.lastReply()).not.toContain("/provider/");
  });
});
