/**
 * The callback route's own limits, on the route alone (no watcher), over HTTP on node's own request as
 * the bot's server serves it (the bursts of thousands through the same rules in process): a signed
 * callback is the provider's and passes in bursts; a flood without a valid signature stays cheap and
 * bounded; the body is bounded and nothing leaks.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { createLogger } from "../../src/logging/logger.js";
import { CALLBACK_MAX_BYTES, CALLBACKS_PER_MINUTE, callbackListener, callbackPost, ProviderCallbacks, SIGNED_CALLBACKS_PER_MINUTE } from "../../src/server/providerCallback.js";
import { ManualClock } from "../../src/tools/clock.js";

const TOKEN = "tokenabcdefghijklmnopqrs";
const USERNAME = "rina_cell";
const CHAT = 42;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r).closeAllConnections())));
});

/**
 * `http`: over the node route on a server, as the bot serves it. The counting tests (thousands of
 * callbacks) go through the same rules in process (callbackPost, the sandbox's route): over sockets
 * they took 35 s of a loaded CI run for what the HTTP tests below already show once.
 */
async function route(opts: { storeFails?: boolean; http?: boolean } = {}) {
  const clock = new ManualClock();
  const chat: { chatId: number; providerUsername: string; callbackToken: string; callbacksLastAt?: number } = { chatId: CHAT, providerUsername: USERNAME, callbackToken: TOKEN };
  const seen = { hurried: [] as { refId: string; signed: boolean }[], lookups: 0, lastAtWrites: 0, log: "" };
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk: Buffer, _enc, done) {
        seen.log += chunk.toString();
        done();
      },
    }),
  );
  const callbacks = new ProviderCallbacks({
    clock,
    logger,
    store: {
      chatByCallbackToken: (token: string) => (opts.storeFails ? Promise.reject(new Error("disk /secret/path failed")) : Promise.resolve(token === TOKEN ? (chat as never) : undefined)),
      findHotTx: (_chatId: number, refId: string) => {
        seen.lookups++;
        return Promise.resolve(refId.startsWith("TP") ? ({ refId } as never) : undefined);
      },
      updateChat: (_chatId: number, patch: { callbacksLastAt?: number }) => {
        seen.lastAtWrites++;
        chat.callbacksLastAt = patch.callbacksLastAt;
        return Promise.resolve(chat as never);
      },
    } as never,
    hurry: (refId, signed) => {
      seen.hurried.push({ refId, signed });
      return Promise.resolve(true);
    },
  });
  // A transaction's callback as the provider POSTs it, to the route in process or over HTTP.
  const request = (refId: string, signature?: string): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json", ...(signature !== undefined ? { "x-atl-signature": signature } : {}) },
    body: JSON.stringify({ event: "transaksi", status: "success", data: { reff_id: refId } }),
  });
  if (!opts.http) {
    const inProcess = callbackPost(callbacks);
    const base = "http://in-process.invalid";
    const post = (refId: string, signature?: string, path = `/provider/${TOKEN}`) => inProcess(`${base}${path}`, request(refId, signature));
    return { clock, seen, post, base };
  }
  const listener = callbackListener(callbacks, logger);
  const server = createServer((req, res) => {
    if (!listener(req, res)) res.writeHead(418).end(); // another route's request: not the callbacks'
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (refId: string, signature?: string, path = `/provider/${TOKEN}`) => fetch(`${base}${path}`, request(refId, signature));
  return { clock, seen, post, base };
}

const SIGNED = callbackSignature(USERNAME);

describe("provider callback route: signed bursts pass, forged floods stay bounded", () => {
  it("a flood of forged callbacks: 401 and one log line each up to CALLBACKS_PER_MINUTE, then 429 unlogged; nothing looked up or checked; the real ones still pass", async () => {
    const { clock, seen, post } = await route({ http: true });
    const statuses: number[] = [];
    for (let i = 0; i < CALLBACKS_PER_MINUTE + 200; i++) statuses.push((await post(`TP${i}`, i % 2 ? callbackSignature("someone_else") : undefined)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(CALLBACKS_PER_MINUTE);
    expect(statuses.slice(CALLBACKS_PER_MINUTE).every((s) => s === 429)).toBe(true);
    expect(seen.log.split("provider callback refused: signature").length - 1).toBe(CALLBACKS_PER_MINUTE);
    expect(seen.lookups).toBe(0);
    expect(seen.hurried).toEqual([]);
    // The provider's own callback is not locked out by the flood.
    expect((await post("TPREAL1", SIGNED)).status).toBe(200);
    expect(seen.hurried).toEqual([{ refId: "TPREAL1", signed: true }]);
    await clock.advance(60_000);
    expect((await post("TPX")).status).toBe(401);
  });

  it("a burst of 2,000 signed callbacks (1,000 orders paid, then bought) in one second: all 200, each checked at once as signed, one store write", async () => {
    const { seen, post } = await route();
    for (let i = 0; i < 2_000; i++) expect((await post(`TP${i}`, SIGNED)).status).toBe(200);
    expect(seen.hurried).toHaveLength(2_000);
    expect(seen.hurried.every((h) => h.signed)).toBe(true);
    expect(seen.lastAtWrites).toBe(1);
  }, 60_000); // ~1 s of CPU on a quiet machine; a machine loaded 7 times over took past 20 s

  it("signed callbacks are bounded too: past SIGNED_CALLBACKS_PER_MINUTE in a minute, 429 until the next", async () => {
    const { clock, seen, post } = await route();
    let ok = 0;
    for (let i = 0; i < SIGNED_CALLBACKS_PER_MINUTE; i++) if ((await post("NOSUCHREF", SIGNED)).status === 200) ok++;
    expect(ok).toBe(SIGNED_CALLBACKS_PER_MINUTE);
    expect((await post("TP1", SIGNED)).status).toBe(429);
    expect(seen.hurried).toEqual([]);
    await clock.advance(60_000);
    expect((await post("TP1", SIGNED)).status).toBe(200);
    expect(seen.hurried).toEqual([{ refId: "TP1", signed: true }]);
  }, 60_000); // 6,000 requests: as above

  it("callbacksLastAt is saved again once a minute has passed (it is shown in minutes)", async () => {
    const { clock, seen, post } = await route({ http: true });
    await post("TP1", SIGNED);
    await clock.advance(59_000);
    await post("TP2", SIGNED);
    expect(seen.lastAtWrites).toBe(1);
    await clock.advance(1_000);
    await post("TP3", SIGNED);
    expect(seen.lastAtWrites).toBe(2);
  });
});

describe("provider callback route over HTTP: bounded, and nothing leaks", () => {
  it("a body over the limit is refused with 413, stated or chunked, before anything is checked; a good one passes after", async () => {
    const { seen, post, base } = await route({ http: true });
    const big = JSON.stringify({ event: "transaksi", data: { reff_id: "TP1", pad: "x".repeat(CALLBACK_MAX_BYTES) } });
    const stated = await fetch(`${base}/provider/${TOKEN}`, { method: "POST", headers: { "x-atl-signature": SIGNED }, body: big });
    expect(stated.status).toBe(413);
    const chunked = await fetch(`${base}/provider/${TOKEN}`, {
      method: "POST",
      headers: { "x-atl-signature": SIGNED },
      body: new Blob([big]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ error: "body too large" });
    expect(seen.hurried).toEqual([]);
    expect((await post("TP2", SIGNED)).status).toBe(200);
    expect(seen.hurried).toEqual([{ refId: "TP2", signed: true }]);
  });

  it("answers carry no detail: 404 for an unknown token, 400 for a body that is not JSON, 500 without the error when the store fails (logged)", async () => {
    const { base, post, seen } = await route({ http: true });
    const unknown = await post("TP1", SIGNED, "/provider/nosuchtoken");
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: "not found" }]);
    const notJson = await fetch(`${base}/provider/${TOKEN}`, { method: "POST", headers: { "x-atl-signature": SIGNED }, body: "{not json" });
    expect([notJson.status, await notJson.json()]).toEqual([400, { error: "bad request" }]);
    expect(seen.hurried).toEqual([]);

    const failing = await route({ storeFails: true, http: true });
    const res = await failing.post("TP1", SIGNED);
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("secret");
    expect(failing.seen.log).toContain("http request failed");
  });

  it("only POST /provider/<token> is the route's: other paths and methods go on to the other routes", async () => {
    const { base, seen } = await route({ http: true });
    expect((await fetch(`${base}/provider/${TOKEN}`)).status).toBe(418);
    expect((await fetch(`${base}/provider/${TOKEN}/more`, { method: "POST", body: "{}" })).status).toBe(418);
    expect((await fetch(`${base}/healthz`, { method: "POST", body: "{}" })).status).toBe(418);
    expect(seen.hurried).toEqual([]);
  });
});
