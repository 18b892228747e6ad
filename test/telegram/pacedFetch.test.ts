/**
 * pacedFetch with its default HTTP client, as production runs it: grammY's Api over real HTTP to a
 * server on 127.0.0.1, grammY's own abort signal and request bodies, connections kept alive.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Api, HttpError, InputFile } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { SendPacer } from "../../src/telegram/pacer.js";
import { pacedFetch } from "../../src/telegram/pacedFetch.js";
import { classify } from "../../src/telegram/delivery.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";

interface Seen {
  method: string;
  contentType: string;
  bytes: number;
  socket: number;
}

/** A Bot API stand-in: answers every method ok, or drops the connection / never answers for the methods named. */
async function telegram(opts: { drop?: string; stall?: string } = {}) {
  const seen: Seen[] = [];
  const sockets = new Map<unknown, number>();
  const server = http.createServer((req, res) => {
    const method = req.url!.slice(req.url!.lastIndexOf("/") + 1);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size);
      seen.push({ method, contentType: String(req.headers["content-type"]), bytes: Buffer.concat(chunks).length, socket: sockets.get(req.socket)! });
      if (method === opts.drop) return req.socket.destroy();
      if (method === opts.stall) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true, result: { message_id: seen.length, date: 0, chat: { id: 1, type: "private" } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function pacedApi(apiRoot: string): Api {
  const clock = new ManualClock();
  return new Api(FAKE_BOT_TOKEN, { apiRoot, fetch: pacedFetch({ pacer: new SendPacer(clock, 30), clock }) as never });
}

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

describe("pacedFetch's default HTTP client", () => {
  it("sends grammY's JSON and multipart requests, reusing kept-alive connections", async () => {
    const t = await telegram();
    const api = pacedApi(t.apiRoot);
    await api.sendMessage(1, "halo");
    await api.sendPhoto(1, new InputFile(Buffer.alloc(2048, 1), "receipt.png"));
    for (let i = 0; i < 4; i++) await api.editMessageText(1, 1, `halo ${i}`);
    expect(t.seen.map((s) => s.method)).toEqual(["sendMessage", "sendPhoto", ...Array<string>(4).fill("editMessageText")]);
    expect(t.seen[0]!.contentType).toContain("application/json");
    expect(t.seen[1]!.contentType).toContain("multipart/form-data");
    expect(t.seen[1]!.bytes).toBeGreaterThan(2048);
    // Six requests one after another, not six connections (a connection is freed just after its answer is read).
    expect(new Set(t.seen.map((s) => s.socket)).size).toBeLessThanOrEqual(2);
  });

  it("a dropped connection is grammY's network error: maybe delivered, no token in the message", async () => {
    const t = await telegram({ drop: "sendMessage" });
    const err = await pacedApi(t.apiRoot).sendMessage(1, "halo").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(classify(err)).toBe("uncertain");
    expect(String((err as Error).message)).not.toContain(FAKE_BOT_TOKEN.split(":")[1]);
  });

  it("the caller's abort signal stops a request waiting for its answer", async () => {
    const t = await telegram({ stall: "sendMessage" });
    const controller = new AbortController();
    const sent = pacedApi(t.apiRoot).sendMessage(1, "halo", undefined, controller.signal as never).catch((e: unknown) => e);
    await expect.poll(() => t.seen.length).toBe(1);
    controller.abort();
    expect(await sent).toBeInstanceOf(Error);
  });
});
