/**
 * Faults against real local sockets: timeouts, 5xx, Cloudflare HTML, broken JSON, refusals, schema
 * failures. Checks the typed error, `outcomeUnknown` (creates vs reads), retry counts, and that the
 * api key never leaks into an error.
 */
import { createServer, type AddressInfo, type Socket } from "node:net";
import { freePort } from "../support/freePort.js";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { UpstreamClient, type UpstreamClientOptions } from "../../src/upstream/client.js";
import {
  UpstreamError,
  UpstreamRejected,
  UpstreamUnavailable,
  UpstreamUnexpected,
} from "../../src/upstream/errors.js";
import { CALLS, validReply, type CallCase } from "./calls.js";
import { InstantClock, startServer, type Handler, type TestServer } from "./server.js";

const KEY = "SECRET-api-key+9f/3c=Zq";
const ENCODED_KEY = new URLSearchParams({ k: KEY }).toString().slice(2);
const READ_RETRIES = 2;

const CLOUDFLARE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head>
<body><div id="cf-wrapper">Checking your browser before accessing atlantich2h.com. Ray ID: 8a1b2c3d</div></body></html>`;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function setup(handler: Handler, opts: Partial<UpstreamClientOptions> = {}) {
  const server = await startServer(handler);
  const clock = new InstantClock();
  const client = new UpstreamClient({
    baseUrl: server.url,
    readRetries: READ_RETRIES,
    retryBaseMs: 100,
    random: () => 0.5,
    clock,
    ...opts,
  });
  open.push(server, client);
  return { server, client, clock };
}

async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  const e = await p.then(
    () => {
      throw new Error("expected a failure");
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UpstreamError);
  expectNoSecret(e);
  return e as UpstreamError;
}

/** The key must not appear in any rendering of the error, its cause or its own fields. */
function expectNoSecret(e: unknown): void {
  const err = e as Error;
  const renderings = [
    JSON.stringify(err),
    JSON.stringify({ ...err, message: err.message, stack: err.stack }),
    inspect(err, { depth: 10, showHidden: true }),
    String(err.stack),
    String(err),
    JSON.stringify(err.cause ?? null),
    inspect(err.cause, { depth: 10, showHidden: true }),
    ...Object.values(err).map((v) => (typeof v === "string" ? v : String(JSON.stringify(v)))),
  ];
  for (const text of renderings) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(ENCODED_KEY);
    expect(text).not.toContain("SECRET-api-key");
  }
}

/** Hits on one path since `from`. */
const hitsOn = (server: TestServer, c: CallCase, from = 0) =>
  server.hits.slice(from).filter((h) => h.path === c.path).length;

const reads = CALLS.filter((c) => !c.create);
const creates = CALLS.filter((c) => c.create);

describe("unavailable: every read retries, every create is sent once with outcome unknown", () => {
  const cases: [string, Handler, UpstreamUnavailable["reason"], number | undefined][] = [
    ["HTTP 502 with an HTML body", () => ({ status: 502, body: "<html>502 Bad Gateway</html>", contentType: "text/html" }), "http", 502],
    ["HTTP 503 with a JSON refusal", () => ({ status: 503, json: { status: false, message: "maintenance" } }), "http", 503],
    ["HTTP 200 Cloudflare challenge", () => ({ status: 200, body: CLOUDFLARE, contentType: "text/html; charset=UTF-8" }), "html", 200],
    ["HTTP 403 Cloudflare block", () => ({ status: 403, body: CLOUDFLARE, contentType: "text/html" }), "html", 403],
    ["malformed JSON", () => ({ status: 200, body: '{"status": true, "data": {', contentType: "application/json" }), "malformed", 200],
  ];

  for (const [title, handler, reason, httpStatus] of cases) {
    it(title, async () => {
      const { server, client, clock } = await setup(handler);
      for (const c of reads) {
        const from = server.hits.length;
        const e = await failure(c.call(client, KEY));
        expect(e, c.name).toBeInstanceOf(UpstreamUnavailable);
        expect(e, c.name).toMatchObject({ reason, httpStatus, outcomeUnknown: false, endpoint: c.path });
        expect(e.message).not.toMatch(/outcome unknown/);
        expect(hitsOn(server, c, from), c.name).toBe(1 + READ_RETRIES);
      }
      // Backoff: 100 then 200, equal jitter at random=0.5 -> 75, 150; on the injected clock.
      expect(clock.sleeps.slice(0, 2)).toEqual([75, 150]);
      expect(clock.sleeps).toHaveLength(reads.length * READ_RETRIES);

      for (const c of creates) {
        const from = server.hits.length;
        const e = await failure(c.call(client, KEY));
        expect(e, c.name).toBeInstanceOf(UpstreamUnavailable);
        expect(e, c.name).toMatchObject({ reason, httpStatus, outcomeUnknown: true });
        expect(e.message).toMatch(/outcome unknown/);
        expect(hitsOn(server, c, from), c.name).toBe(1);
      }
      expect(clock.sleeps).toHaveLength(reads.length * READ_RETRIES);
    });
  }
});

describe("timeouts", () => {
  it("a read to a hung provider fails after readTimeoutMs, once (not retried); a create keeps its longer timeout", async () => {
    const { server, client, clock } = await setup(() => "hang", { timeoutMs: 2500, readTimeoutMs: 150 });
    let started = Date.now();
    const e = await failure(client.getProfile(KEY));
    expect(e).toBeInstanceOf(UpstreamUnavailable);
    expect(e).toMatchObject({ reason: "timeout", outcomeUnknown: false, endpoint: "/get_profile" });
    expect((e as UpstreamUnavailable).httpStatus).toBeUndefined();
    expect(server.hits).toHaveLength(1); // the user is not kept waiting three times over
    expect(clock.sleeps).toHaveLength(0);
    expect(Date.now() - started).toBeLessThan(2000); // the retried read took 3 x 2.5 s
    started = Date.now();
    await failure(creates[0]!.call(client, KEY));
    expect(Date.now() - started).toBeGreaterThanOrEqual(2400);
  });

  it("reads default to a 12 s budget and creates to 20 s", () => {
    const client = new UpstreamClient({ baseUrl: "http://127.0.0.1:9" });
    open.push(client);
    expect(client).toMatchObject({ readTimeoutMs: 12_000, timeoutMs: 20_000 });
  });

  it("a create that times out is sent once and its outcome is unknown", async () => {
    const { server, client } = await setup(() => "hang", { timeoutMs: 200 });
    for (const c of creates) {
      const from = server.hits.length;
      const e = await failure(c.call(client, KEY));
      expect(e, c.name).toBeInstanceOf(UpstreamUnavailable);
      expect(e, c.name).toMatchObject({ reason: "timeout", outcomeUnknown: true });
      expect(e.message).toMatch(/outcome unknown/);
      expect(hitsOn(server, c, from), c.name).toBe(1);
    }
  });

  it("a body that stalls after the headers also times out", async () => {
    // Headers sent, body never finished.
    const raw = await startRawServer((sock) =>
      sock.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"status\":"),
    );
    open.push(raw);
    const client = new UpstreamClient({ baseUrl: raw.url, timeoutMs: 200, readRetries: 0 });
    open.push(client);
    const e = await failure(client.bankList(KEY));
    expect(e).toMatchObject({ reason: "timeout" });
  });
});

describe("network errors", () => {
  it("connection refused is a network failure, retried for reads", async () => {
    const port = await freePort();
    const clock = new InstantClock();
    const client = new UpstreamClient({ baseUrl: `http://127.0.0.1:${port}`, clock, readRetries: 2 });
    open.push(client);
    const e = await failure(client.depositStatus(KEY, "D1"));
    expect(e).toBeInstanceOf(UpstreamUnavailable);
    expect(e).toMatchObject({ reason: "network", outcomeUnknown: false });
    expect(clock.sleeps).toHaveLength(2);
    const cause = e.cause as { code?: string; message: string };
    expect(cause.code).toBe("ECONNREFUSED");
    expect(Object.keys(cause).sort()).toEqual(["code", "message"]);

    const c = await failure(client.createDeposit(KEY, { reffId: "r", amount: 1000, type: "va", method: "BCA" }));
    expect(c).toMatchObject({ reason: "network", outcomeUnknown: true });
    expect(clock.sleeps).toHaveLength(2);
  });

  it("a connection dropped mid-request is a network failure", async () => {
    const raw = await startRawServer((sock) => sock.destroy());
    open.push(raw);
    const client = new UpstreamClient({ baseUrl: raw.url, readRetries: 0 });
    open.push(client);
    const e = await failure(client.createTransaction(KEY, { code: "A", reffId: "r", target: "1" }));
    expect(e).toMatchObject({ reason: "network", outcomeUnknown: true });
  });
});

describe("refusals are final", () => {
  it('{"status":false,"message":"Transaksi Gagal","code":201} without data', async () => {
    const { server, client, clock } = await setup(() => ({
      json: { status: false, message: "Transaksi Gagal", code: 201 },
    }));
    for (const c of CALLS) {
      const from = server.hits.length;
      const e = await failure(c.call(client, KEY));
      expect(e, c.name).toBeInstanceOf(UpstreamRejected);
      expect(e, c.name).toMatchObject({ providerMessage: "Transaksi Gagal", providerCode: 201, outcomeUnknown: false });
      expect(hitsOn(server, c, from), c.name).toBe(1);
    }
    expect(clock.sleeps).toHaveLength(0);
  });

  it("status:false with HTTP 403 JSON (key used from a non-allow-listed IP)", async () => {
    const message = "IP 203.0.113.7 tidak terdaftar, silakan whitelist IP di dashboard";
    const { server, client } = await setup(() => ({ status: 403, json: { status: false, message } }));
    const e = await failure(client.getProfile(KEY));
    expect(e).toBeInstanceOf(UpstreamRejected);
    expect(e).toMatchObject({ providerMessage: message, outcomeUnknown: false });
    expect(e.message).toContain(message);
    expect(server.hits).toHaveLength(1);
  });

  it("a provider message echoing the key is redacted", async () => {
    const { client } = await setup(() => ({
      json: { status: false, message: `api_key ${KEY} tidak valid (${ENCODED_KEY})` },
    }));
    const e = (await failure(client.getProfile(KEY))) as UpstreamRejected;
    expect(e.providerMessage).toBe("api_key [redacted] tidak valid ([redacted])");
  });
});

describe("schema failures", () => {
  const badPrice = {
    status: true,
    data: { id: "T", reff_id: "R", layanan: "L", code: "C", target: "1", price: "abc", sn: null, status: "pending" },
    code: 200,
  };

  it("name the failing field and are not retried; creates keep outcome unknown", async () => {
    const { server, client } = await setup(() => ({ json: badPrice }));
    const read = await failure(client.prepaidStatus(KEY, "T"));
    expect(read).toBeInstanceOf(UpstreamUnexpected);
    expect(read).toMatchObject({ field: "data.price", outcomeUnknown: false, endpoint: "/transaksi/status" });
    expect(read.message).toContain("data.price");
    expect(server.hits).toHaveLength(1);

    const create = await failure(client.createTransaction(KEY, { code: "C", reffId: "R", target: "1" }));
    expect(create).toBeInstanceOf(UpstreamUnexpected);
    expect(create).toMatchObject({ field: "data.price", outcomeUnknown: true });
    expect(create.message).toMatch(/outcome unknown/);
    expect(server.hits).toHaveLength(2);
  });

  it("every create with an unusable success body reports outcome unknown", async () => {
    const { server, client } = await setup(() => ({ json: { status: true, data: { nothing: 1 } } }));
    for (const c of creates) {
      const from = server.hits.length;
      const e = await failure(c.call(client, KEY));
      expect(e, c.name).toBeInstanceOf(UpstreamUnexpected);
      expect(e, c.name).toMatchObject({ outcomeUnknown: true });
      expect(hitsOn(server, c, from)).toBe(1);
    }
  });
});

describe("retry behaviour", () => {
  it("a read recovers when a later attempt succeeds", async () => {
    const { server, client, clock } = await setup((hit, i) =>
      i < 2 ? { status: 503, body: "busy" } : validReply(hit),
    );
    const banks = await client.bankList(KEY);
    expect(banks).toHaveLength(3);
    expect(server.hits).toHaveLength(3);
    expect(clock.sleeps).toEqual([75, 150]);
  });

  it("readRetries: 0 disables retries", async () => {
    const { server, client } = await setup(() => ({ status: 502, body: "x" }), { readRetries: 0 });
    await failure(client.checkAccount(KEY, { bankCode: "bca", accountNumber: "1" }));
    expect(server.hits).toHaveLength(1);
  });

  it("backoff sleeps on the injected clock: no second attempt before it advances", async () => {
    const clock = new ManualClock();
    const slept: number[] = [];
    let wokeUp!: () => void;
    const sleeping = new Promise<void>((r) => (wokeUp = r));
    const spy = Object.assign(Object.create(clock) as ManualClock, {
      sleep: (ms: number) => {
        slept.push(ms);
        wokeUp();
        return clock.sleep(ms);
      },
    });
    const { server, client } = await setup((hit, i) => (i === 0 ? { status: 502, body: "x" } : validReply(hit)), {
      clock: spy,
      random: () => 0,
    });
    const result = client.billInquiry(KEY, { code: "PPLN", reffId: "B", customerNo: "1" });
    await sleeping;
    expect(slept).toEqual([50]);
    expect(server.hits).toHaveLength(1);
    await clock.advance(49);
    expect(server.hits).toHaveLength(1);
    await clock.advance(1);
    await expect(result).resolves.toMatchObject({ total: 102236 });
    expect(server.hits).toHaveLength(2);
  });
});

// ---------------------------------------------------------------------------------------------

/** A bare TCP server for answers node:http cannot produce (half-sent bodies, dropped sockets). */
async function startRawServer(onRequest: (sock: Socket) => void) {
  const sockets = new Set<Socket>();
  const server = createServer((sock) => {
    sockets.add(sock);
    sock.once("data", () => onRequest(sock));
    sock.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe("abortCalls (a stop that cannot wait for a slow provider)", () => {
  it("ends the calls in flight at once, a create as outcome unknown; later calls, retries included, never go out", async () => {
    const { server, client } = await setup((hit) => (hit.path.endsWith("/transaksi/create") ? "hang" : validReply(hit)));
    const create = client.createTransaction(KEY, { code: "S10", reffId: "R1", target: "081234567890" });
    await expect.poll(() => server.hits.length).toBe(1);
    await client.abortCalls();
    const cut = await failure(create);
    expect(cut).toBeInstanceOf(UpstreamUnavailable);
    expect(cut.outcomeUnknown).toBe(true);

    const read = await failure(client.bankList(KEY));
    expect(read).toBeInstanceOf(UpstreamUnavailable);
    expect(server.hits).toHaveLength(1);
  });
});
