/**
 * sizeLimit (src/server/bodySize.ts): the same answers as hono's bodyLimit, without building a web
 * Request with a stream for a body whose length is stated (the provider callbacks' hot path).
 */
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { afterEach, describe, expect, it } from "vitest";
import { sizeLimit } from "../../src/server/bodySize.js";

const MAX = 64;
let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function start(limit: MiddlewareHandler): Promise<number> {
  const app = new Hono();
  app.post("/echo", limit, async (c) => c.text(await c.req.text()));
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s as Server));
  });
  return (server.address() as AddressInfo).port;
}

/** A POST through node:http (no web streams on the client side); chunked when `chunked`. */
function post(port: number, body: string, chunked = false): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/echo", method: "POST", headers: chunked ? {} : { "content-length": Buffer.byteLength(body) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    if (chunked) for (let i = 0; i < body.length; i += 16) req.write(body.slice(i, i + 16));
    else req.write(body);
    req.end();
  });
}

/** How many web ReadableStreams the process makes while `fn` runs. */
async function streamsMadeBy<T>(fn: () => Promise<T>): Promise<{ result: T; streams: number }> {
  const Original = globalThis.ReadableStream;
  let streams = 0;
  globalThis.ReadableStream = new Proxy(Original, {
    construct(target, args: unknown[], newTarget: NewableFunction) {
      streams++;
      return Reflect.construct(target, args, newTarget) as object;
    },
  });
  try {
    return { result: await fn(), streams };
  } finally {
    globalThis.ReadableStream = Original;
  }
}

const limit = sizeLimit({ maxSize: MAX, onError: (c) => c.json({ error: "body too large" }, 413) });

describe("sizeLimit", () => {
  it("a body of stated length within the limit reaches the handler whole, read without a web stream", async () => {
    const port = await start(limit);
    const { result, streams } = await streamsMadeBy(() => post(port, '{"event":"transaksi"}'));
    expect(result).toEqual({ status: 200, text: '{"event":"transaksi"}' });
    expect(streams).toBe(0);
  });

  it("hono's bodyLimit, for comparison, builds one (the cost sizeLimit avoids)", async () => {
    const port = await start(bodyLimit({ maxSize: MAX }));
    const { result, streams } = await streamsMadeBy(() => post(port, '{"event":"transaksi"}'));
    expect(result.status).toBe(200);
    expect(streams).toBeGreaterThan(0);
  });

  it("refuses with 413 a stated length over the limit, and a chunked body that grows over it", async () => {
    const port = await start(limit);
    expect((await post(port, "x".repeat(MAX + 1))).status).toBe(413);
    expect((await post(port, "x".repeat(MAX + 1), true)).status).toBe(413);
    expect(await post(port, "y".repeat(MAX), true)).toEqual({ status: 200, text: "y".repeat(MAX) });
    expect(await post(port, "z".repeat(MAX))).toEqual({ status: 200, text: "z".repeat(MAX) });
  });
});
