/**
 * How a bot reaches the emulator: in-process as grammY's `client.fetch`, or over real HTTP on
 * 127.0.0.1 (`/bot<token>/<method>` and `/file/bot<token>/<file_path>` downloads; any token).
 * Both decode the request, may lose it on the way (a network fault), and answer with the HTTP
 * status Telegram uses: the error_code on failure.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeRequest, type DecodedRequest } from "./requestDecoding.js";
import { ApiErrorResponse, apiError, type ApiResponse } from "./responses.js";

/** Request init as grammY passes it to `fetch` (JSON string body or multipart stream). */
export interface FakeFetchInit {
  method?: string;
  headers?: unknown;
  body?: unknown;
  signal?: AbortSignal | null;
  [key: string]: unknown;
}

export interface FakeServer {
  /** e.g. `http://127.0.0.1:41234`; use as grammY's `client.apiRoot` / TELEGRAM_API_ROOT. */
  apiRoot: string;
  port: number;
  /** Releases pending long polls and stops the server (also kills keep-alive sockets). */
  close(): Promise<void>;
}

/** A request that never reaches Telegram: the caller sees a broken connection. */
export interface LostRequest {
  /** In-process, what fetch throws (default: shaped like node-fetch's FetchError). */
  error?: (url: string) => Error;
}

/** What the transports hand a decoded request to. */
export interface Receiver {
  lostInTransit(method: string, payload: Record<string, unknown>): LostRequest | undefined;
  dispatch(method: string, request: DecodedRequest, via: "fetch" | "http", signal: AbortSignal | undefined): Promise<ApiResponse>;
  download(path: string): Buffer | undefined;
}

/**
 * Drop-in for grammY's `client.fetch`: `(url, init)` as grammY calls it (JSON string body, or a
 * multipart Node stream when uploading), resolving to a web `Response`. Honours `init.signal`
 * (long polls are released when grammY aborts them, e.g. on `bot.stop()`).
 */
export function fetchTransport(receiver: Receiver) {
  return async (input: string | URL | { url: string }, init: FakeFetchInit = {}): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = methodFromPath(url.pathname);
    if (method === undefined) return jsonResponse(404, apiError(404, "Not Found"));
    const headers = new Headers((init.headers ?? undefined) as ConstructorParameters<typeof Headers>[0]);
    let decoded: DecodedRequest;
    try {
      decoded = await decodeRequest(headers.get("content-type") ?? "", init.body, url.searchParams);
    } catch (e) {
      if (e instanceof ApiErrorResponse) return jsonResponse(400, e.response);
      throw e;
    }
    const lost = receiver.lostInTransit(method, decoded.payload);
    if (lost) throw lost.error?.(url.href) ?? networkError(url.href);
    const signal = init.signal ?? undefined;
    const response = await receiver.dispatch(method, decoded, "fetch", signal);
    if (signal?.aborted) {
      // what a real fetch does when the request is aborted
      throw Object.assign(new Error("The operation was aborted."), { name: "AbortError", type: "aborted" });
    }
    return jsonResponse(response.ok ? 200 : response.error_code, response);
  };
}

/** Serves the receiver on 127.0.0.1 with a random port; `onClosing` runs first on close. */
export async function serveHttp(receiver: Receiver, onClosing: () => void): Promise<FakeServer> {
  const inFlight = { count: 0 };
  const server = http.createServer((req, res) => {
    inFlight.count++;
    void answerHttp(receiver, req, res)
      .catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify(apiError(500, `Internal Server Error: ${String(err)}`)));
      })
      .finally(() => inFlight.count--);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      onClosing();
      // Let the released long polls (and other in-flight requests) send their answers
      // before the sockets are destroyed.
      const deadline = Date.now() + 1_000;
      while (inFlight.count > 0 && Date.now() < deadline) await sleep(5);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function answerHttp(receiver: Receiver, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const fileMatch = /^\/file\/bot[^/]+\/(.+)$/.exec(url.pathname);
  if (fileMatch) {
    const bytes = receiver.download(decodeURIComponent(fileMatch[1]!));
    if (!bytes) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(bytes);
    return;
  }
  const method = methodFromPath(url.pathname);
  const send = (r: ApiResponse) => {
    if (res.destroyed) return;
    res.writeHead(r.ok ? 200 : r.error_code, { "content-type": "application/json" });
    res.end(JSON.stringify(r));
  };
  if (method === undefined) return send(apiError(404, "Not Found"));
  // Aborted when the client goes away (grammY aborts a pending getUpdates on stop()).
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  let decoded: DecodedRequest;
  try {
    decoded = await decodeRequest(String(req.headers["content-type"] ?? ""), req, url.searchParams);
  } catch (e) {
    if (e instanceof ApiErrorResponse) return send(e.response);
    throw e;
  }
  if (receiver.lostInTransit(method, decoded.payload)) {
    req.socket.destroy(); // the client sees a reset connection, no answer
    return;
  }
  send(await receiver.dispatch(method, decoded, "http", controller.signal));
}

function methodFromPath(pathname: string): string | undefined {
  // /bot<token>/<method> or /bot<token>/test/<method> (grammY's test environment)
  const m = /^\/bot[^/]+\/(?:test\/)?([A-Za-z]+)$/.exec(pathname);
  return m?.[1];
}

/** What node-fetch (grammY's fetch on Node) throws when a connection drops: the URL is in the message. */
function networkError(url: string): Error {
  const message = `request to ${url} failed, reason: socket hang up`;
  return Object.assign(new Error(message), { name: "FetchError", type: "system", errno: "ECONNRESET", code: "ECONNRESET" });
}

function jsonResponse(status: number, body: ApiResponse): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
