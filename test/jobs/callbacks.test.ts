/**
 * The provider's callbacks: POST /provider/<token> on the app's own HTTP server makes the
 * watcher check that id at once (signed: a few at a time per key, not under the polling rate); only the status answer changes anything.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { createLogger } from "../../src/logging/logger.js";
import { CALLBACKS_PER_MINUTE } from "../../src/server/providerCallback.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";
import { noticesAbout, pendingPrepaid, pendingQris, pendingTransfer, run, statusCalls } from "./support.js";

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const SETTLE_LATER = 60 * 60_000; // sales settle only when a test says so (sandbox.settle)

async function started(opts: WorldOptions = {}): Promise<{ w: World; url: string }> {
  w = await makeWorld({ watcher: true, sandbox: { settleMs: SETTLE_LATER }, ...opts, env: { HTTP_PORT: "0", PUBLIC_URL: "http://127.0.0.1:9", ...opts.env } });
  await w.app.start();
  return { w, url: w.app.http()!.url };
}

/** A linked chat as linking leaves it: the provider username saved and a callback token. */
async function linked(world: World, lang: "id" | "en" = "id"): Promise<{ u: FakeUser; token: string; signature: string }> {
  const u = await world.linkedUser({ languageCode: lang });
  const { username } = await world.upstream.getProfile(world.demoKey);
  const token = `tok${u.chatId}abcdefghijklmnopqrstu`;
  await world.store.updateChat(u.chatId, { providerUsername: username, callbackToken: token });
  return { u, token, signature: callbackSignature(username) };
}

function post(url: string, token: string, body: unknown, signature?: string): Promise<Response> {
  return fetch(`${url}/provider/${token}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature !== undefined ? { "x-atl-signature": signature } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function prepaidCallback(refId: string, upstreamId: string | undefined, status = "success") {
  return { event: "transaksi", status, data: { id: upstreamId, reff_id: refId, price: "10500", status, sn: "123" } };
}

const success = (world: World, chatId: number, refId: string) =>
  noticesAbout(world, chatId, refId).filter((t) => t.includes("Transaksi berhasil"));

describe("provider callbacks: POST /provider/<token>", () => {
  it("a valid callback: 200 at once, exactly one status call, one success notice within a second; /saldo then says callbacks work", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    w.sandbox.settle(tx.refId, "success");

    const res = await post(url, token, prepaidCallback(tx.refId, tx.upstreamId), signature);
    expect(res.status).toBe(200);
    await run(w, 1_000); // well before the first poll (5 s)
    expect(statusCalls(w)).toBe(1);
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);

    await run(w, 3600_000);
    expect(statusCalls(w)).toBe(1);
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);

    expect((await w.store.getChat(u.chatId))!.callbacksLastAt).toBeTypeOf("number");
    await u.sendCommand("saldo");
    expect(u.lastReply()).toMatch(/Callback: berfungsi, terakhir \d{2}\.\d{2} WIB/);
  });

  it("wrong or missing signature: 401, no status call, logged without the body", async () => {
    let log = "";
    const logger = createLogger("info", new Writable({ write: (c, _e, done) => ((log += String(c)), done()) }));
    const { w, url } = await started({ logger });
    const { u, token } = await linked(w);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");

    expect((await post(url, token, prepaidCallback(tx.refId, tx.upstreamId), callbackSignature("someone_else"))).status).toBe(401);
    expect((await post(url, token, prepaidCallback(tx.refId, tx.upstreamId))).status).toBe(401);
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(0);
    expect(log).toContain("provider callback refused: signature");
    expect(log).not.toContain(tx.refId);
    expect((await w.store.getChat(u.chatId))!.callbacksLastAt).toBeUndefined();
  });

  it("unknown token: 404 that looks like any unknown path", async () => {
    const { w, url } = await started();
    const { u, signature } = await linked(w);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    const res = await post(url, "no-such-token-0123456789", prepaidCallback(tx.refId, tx.upstreamId), signature);
    expect(res.status).toBe(404);
    const nowhere = await fetch(`${url}/nowhere`, { method: "POST" });
    expect(await res.text()).toBe(await nowhere.text());
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(0);
  });

  it("another chat's reference under this chat's token is ignored: 200, no status call for it", async () => {
    const { w, url } = await started();
    const a = await linked(w);
    const b = await linked(w);
    const theirs = await pendingPrepaid(w, b.u.chatId, "081234567890");
    w.sandbox.settle(theirs.refId, "success");

    const res = await post(url, a.token, prepaidCallback(theirs.refId, theirs.upstreamId), a.signature);
    expect(res.status).toBe(200);
    await run(w, 1_000);
    expect(statusCalls(w, theirs.upstreamId)).toBe(0);
    expect(success(w, b.u.chatId, theirs.refId)).toHaveLength(0);
  });

  it("the callback says success but the status endpoint says pending: no success notice, polling goes on", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");

    expect((await post(url, token, prepaidCallback(tx.refId, tx.upstreamId, "success"), signature)).status).toBe(200);
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(1);
    expect((await w.store.getTx(tx.refId))!.status).toBe("pending");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);

    // It really settles later: the poll tells it, once (a chat whose callbacks work: at 1 min of age).
    w.sandbox.settle(tx.refId, "success");
    await run(w, 60_000);
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("a replayed callback, and a callback after the watcher already told: one notice", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    w.sandbox.settle(tx.refId, "success");
    const body = prepaidCallback(tx.refId, tx.upstreamId);

    const [r1, r2] = await Promise.all([post(url, token, body, signature), post(url, token, body, signature)]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    await run(w, 1_000);
    expect((await post(url, token, body, signature)).status).toBe(200);
    await run(w, 60_000);
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);
    expect(statusCalls(w)).toBeLessThanOrEqual(2);

    // The watcher saw this one first; the late callback changes nothing and calls nobody.
    const other = await pendingTransfer(w, u.chatId, "1234567890");
    w.sandbox.settle(other.refId, "success");
    await run(w, 60_000); // its first poll (this chat's callbacks work: at 1 min of age)
    expect(noticesAbout(w, u.chatId, other.refId)).toHaveLength(1);
    const calls = statusCalls(w);
    const late = { event: "transfer", status: "success", data: { id: other.upstreamId, reff_id: other.refId, nominal: "10000", status: "success" } };
    expect((await post(url, token, late, signature)).status).toBe(200);
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(calls);
    expect(noticesAbout(w, u.chatId, other.refId)).toHaveLength(1);
  });

  it("a paid deposit's callback: the processing notice with the instant-release button, at once", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const dep = await pendingQris(w, u.chatId, "qris", 50_000);
    w.sandbox.payDeposit(dep.upstreamId!);

    // Amounts as strings, matched by the provider id only.
    const body = { event: "deposit", status: "processing", data: { id: dep.upstreamId, nominal: "50000", get_balance: "49650", status: "processing" } };
    expect((await post(url, token, body, signature)).status).toBe(200);
    await run(w, 1_000);
    expect((await w.store.getTx(dep.refId))!.status).toBe("processing");
    const notice = w.fake
      .sentTo(u.chatId)
      .filter((c) => c.method === "sendMessage" && String(c.payload.text).includes("Pembayaran deposit diterima"));
    expect(notice).toHaveLength(1);
    const noticeId = (notice[0]!.response as { result: { message_id: number } }).result.message_id;
    expect(u.buttons({ messageId: noticeId })).toContain("⚡ Cairkan sekarang");
  });

  it("an unknown event: 200 and nothing else", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    w.sandbox.settle(tx.refId, "success");
    const res = await post(url, token, { event: "promo.baru", status: "success", data: { reff_id: tx.refId } }, signature);
    expect(res.status).toBe(200);
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(0);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
  });

  it("an oversize body: 413, nothing checked", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    const body = { ...prepaidCallback(tx.refId, tx.upstreamId), padding: "x".repeat(64 * 1024) };
    expect((await post(url, token, body, signature)).status).toBe(413);
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(0);
  });

  it("more than CALLBACKS_PER_MINUTE unsigned on one token: 429, while the signed ones still pass", async () => {
    const { w, url } = await started();
    const { token, signature } = await linked(w);
    const statuses: number[] = [];
    for (let i = 0; i <= CALLBACKS_PER_MINUTE; i++) statuses.push((await post(url, token, { event: "transaksi", data: { reff_id: `X${i}` } })).status);
    expect(statuses.slice(0, CALLBACKS_PER_MINUTE).every((s) => s === 401)).toBe(true);
    expect(statuses[CALLBACKS_PER_MINUTE]).toBe(429);
    expect((await post(url, token, { event: "transaksi", data: { reff_id: "Y" } }, signature)).status).toBe(200);
    await w.clock.advance(60_000);
    expect((await post(url, token, { event: "transaksi", data: { reff_id: "Z" } })).status).toBe(401);
  });

  it("the real sample bodies are accepted (string amounts, a transfer without total) and matched", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const sample = (name: string) => JSON.parse(readFileSync(join(__dirname, "../fixtures/callbacks", name), "utf8")) as { data: Record<string, unknown> };

    // As published (placeholder ids): accepted, matched to nothing.
    for (const name of ["webhook__transaksi_prabayar.json", "webhook__transfer.json"]) {
      expect((await post(url, token, sample(name), signature)).status).toBe(200);
    }
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(0);

    const pre = await pendingPrepaid(w, u.chatId, "081234567890");
    const tf = await pendingTransfer(w, u.chatId, "1234567890");
    w.sandbox.settle(pre.refId, "success");
    w.sandbox.settle(tf.refId, "success");
    const preBody = sample("webhook__transaksi_prabayar.json");
    preBody.data = { ...preBody.data, id: pre.upstreamId, reff_id: pre.refId };
    const tfBody = sample("webhook__transfer.json");
    tfBody.data = { ...tfBody.data, id: tf.upstreamId, reff_id: tf.refId };
    expect((await post(url, token, preBody, signature)).status).toBe(200);
    expect((await post(url, token, tfBody, signature)).status).toBe(200);
    await run(w, 1_000);
    expect(statusCalls(w)).toBe(2);
    expect(success(w, u.chatId, pre.refId)).toHaveLength(1);
    expect(noticesAbout(w, u.chatId, tf.refId)).toHaveLength(1);
  });

  it("signed callbacks are the provider's own traffic: 12 at once on one key are all checked before the clock moves (the per-key rate is 5/s)", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    const txs = [];
    for (let i = 0; i < 12; i++) txs.push(await pendingPrepaid(w, u.chatId, `08123456${String(7000 + i)}`));
    for (const tx of txs) w.sandbox.settle(tx.refId, "success");
    for (const tx of txs) expect((await post(url, token, prepaidCallback(tx.refId, tx.upstreamId), signature)).status).toBe(200);
    await w.watcher!.whenIdle();
    expect(statusCalls(w)).toBe(12);
    for (const tx of txs) expect(success(w, u.chatId, tx.refId)).toHaveLength(1);
    await run(w, 2_000);
    expect(statusCalls(w)).toBe(12);
  });
});

describe("what counts as working callbacks", () => {
  it("a signed callback that matches no transaction of the chat does not slow its polling: only a matched one counts", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await linked(w);
    expect((await post(url, token, { event: "x", status: "success", data: {} }, signature)).status).toBe(200);
    expect((await post(url, token, prepaidCallback("TPNOSUCHREF000", "999999"), signature)).status).toBe(200);
    expect((await w.store.getChat(u.chatId))!.callbacksLastAt).toBeUndefined();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    expect((await post(url, token, prepaidCallback(tx.refId, tx.upstreamId, "pending"), signature)).status).toBe(200);
    expect((await w.store.getChat(u.chatId))!.callbacksLastAt).toBeDefined();
  });
});

describe("the sandbox sends callbacks", () => {
  it("signed, when its sale settles on the clock and when a deposit is paid: instant notices, one status call each", async () => {
    const { w, url } = await started({ sandbox: { settleMs: 2_000 } });
    const { u, token } = await linked(w);
    w.sandbox.setCallbackTarget((key) => (key === w!.demoKey ? [`${url}/provider/${token}`] : []));

    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await w.clock.advance(2_000); // the sale settles: the sandbox posts its callback at once
    await w.sandbox.callbacksIdle();
    expect(w.sandbox.callbacksSent()).toEqual([{ url: `${url}/provider/${token}`, event: "transaksi", status: "success", answer: 200 }]);
    await run(w, 500); // still before the first poll at 5 s
    expect(statusCalls(w)).toBe(1);
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);

    const dep = await pendingQris(w, u.chatId, "qris", 50_000);
    w.sandbox.payDeposit(dep.upstreamId!);
    await w.sandbox.callbacksIdle();
    await run(w, 500);
    expect((await w.store.getTx(dep.refId))!.status).toBe("processing");
    expect(noticesAbout(w, u.chatId, dep.refId).filter((t) => t.includes("Pembayaran deposit diterima"))).toHaveLength(1);
    expect(statusCalls(w, dep.upstreamId)).toBe(1);
  });

  /** A reseller links the built-in sandbox's key through the bot and buys: the sale is pending. */
  async function sandboxModePurchase(env: Record<string, string>) {
    w = await makeWorld({ env: { UPSTREAM_BASE_URL: "sandbox", ...env }, watcher: true });
    await w.app.start();
    const sandbox = w.app.sandbox!;
    const budi = w.user({ languageCode: "id" });
    await budi.sendCommand("start");
    await budi.sendText(sandbox.demoKey);
    await budi.sendCommand("beli", "S10 081234567890");
    await budi.pressButton(/Konfirmasi/);
    const [tx] = (await w.store.listTxByChat(budi.chatId)).items;
    expect(tx!.status).toBe("pending");
    return { w, sandbox, budi, tx: tx! };
  }

  it.each([
    ["with HTTP_PORT, over HTTP to the bot's own server", { HTTP_PORT: "0" }],
    ["without HTTP_PORT (as .env.example and the playground start), in-process", {}],
  ])("in sandbox mode the bot sets the callback target itself, %s: linking through the bot is enough", async (_how, env) => {
    const { w, sandbox, budi, tx } = await sandboxModePurchase(env);
    // The built-in sandbox settles sales after 5 s, like the first poll: step to just before the poll.
    await w.clock.advance(4_999);
    await sandbox.callbacksIdle();
    expect(sandbox.callbacksSent()).toEqual([]);
    await w.clock.advance(1);
    await sandbox.callbacksIdle();
    expect(sandbox.callbacksSent()).toMatchObject([{ event: "transaksi", status: "success", answer: 200 }]);
    await run(w, 1_000);
    expect(success(w, budi.chatId, tx.refId)).toHaveLength(1);
    // /webhook says what happens here: the sandbox calls back by itself, and when it last did.
    await budi.sendCommand("webhook");
    expect(budi.lastReply()).toContain("Sandbox mengirim callback sendiri");
    expect(budi.lastReply()).toContain("Callback: berfungsi, terakhir");
  });
});

describe("polling of a chat whose callbacks work (the safety net backs off, never stops)", () => {
  /** A linked chat that has received one valid callback (so `callbacksLastAt` is now). */
  async function withWorkingCallbacks(world: World, url: string) {
    const chat = await linked(world);
    const first = await pendingPrepaid(world, chat.u.chatId, "081200000001");
    world.sandbox.settle(first.refId, "success");
    expect((await post(url, chat.token, prepaidCallback(first.refId, first.upstreamId), chat.signature)).status).toBe(200);
    await run(world, 1_000);
    expect(success(world, chat.u.chatId, first.refId)).toHaveLength(1);
    return chat;
  }

  it("its pending id is polled far less often than another chat's, still polled, and a lost callback is announced by that poll", async () => {
    const { w, url } = await started();
    const { u } = await withWorkingCallbacks(w, url);
    const other = await w.linkedUser({ languageCode: "id" }); // no callbacks: the normal schedule
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    const plain = await pendingPrepaid(w, other.chatId, "081234567891");

    await run(w, 2 * 60_000);
    expect(statusCalls(w, plain.upstreamId)).toBeGreaterThanOrEqual(20); // every 5 s while young
    const early = statusCalls(w, tx.upstreamId);
    expect(early).toBeGreaterThanOrEqual(1); // still polled ...
    expect(early).toBeLessThanOrEqual(2); // ... at 1 min and 2 min of age

    // Its callback is lost (the sandbox has no callback target here): the next poll tells it, once.
    w.sandbox.settle(tx.refId, "success");
    await run(w, 2 * 60_000); // the id is 2 min old: checked again by 4 min
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);
    await run(w, 30 * 60_000);
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("an old id is still checked at least every 10 minutes while callbacks work", async () => {
    const { w, url } = await started();
    const { u, token, signature } = await withWorkingCallbacks(w, url);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    const other = await pendingPrepaid(w, u.chatId, "081234567899");
    // Callbacks keep arriving, about another of this chat's ids: the URL keeps counting as working.
    for (let m = 0; m < 60; m += 10) {
      await run(w, 10 * 60_000);
      expect((await post(url, token, prepaidCallback(other.refId, other.upstreamId, "pending"), signature)).status).toBe(200);
    }
    const calls = statusCalls(w, tx.upstreamId);
    expect(calls).toBeGreaterThanOrEqual(6); // 1, 2, 4, 8, 16, 26, 36, 46, 56 min
    expect(calls).toBeLessThanOrEqual(10);
    w.sandbox.settle(tx.refId, "success");
    await run(w, 10 * 60_000);
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("when callbacks go quiet, the chat's ids are checked at once and the normal schedule returns", async () => {
    const { w, url } = await started();
    const { u } = await withWorkingCallbacks(w, url);
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 29 * 60_000); // callbacks still count as working: sparse polls
    const quiet = statusCalls(w, tx.upstreamId);
    expect(quiet).toBeLessThanOrEqual(6);

    await run(w, 3 * 60_000); // 30 min after the last callback: checked at once, then 10 s, 20 s, 40 s, 80 s apart
    expect(statusCalls(w, tx.upstreamId) - quiet).toBeGreaterThanOrEqual(4);

    w.sandbox.settle(tx.refId, "success");
    await run(w, 5 * 60_000); // the normal cap
    expect(success(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("an id whose outcome is unknown keeps the normal schedule in a chat whose callbacks work", async () => {
    const { w, url } = await started();
    const { u } = await withWorkingCallbacks(w, url);
    // The engine saves a create whose answer never came as "unknown", then tells the watcher; the
    // provider does not know it (yet), so no callback can come for it.
    const refId = "PPUNKNOWN0001";
    const sent = await w.bot.api.sendMessage(u.chatId, "❓ unknown");
    const tx = await w.store.createTx({ refId, chatId: u.chatId, kind: "prepaid", status: "unknown", code: "S10", title: "Pulsa 10rb", target: "081234567890", amount: 10_500, messageId: sent.message_id });
    w.deps.events.emit("created", tx);
    await run(w, 60_000);
    expect(statusCalls(w, refId)).toBeGreaterThanOrEqual(10); // every 5 s by our reference, as in any chat
  });
});
