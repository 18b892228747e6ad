/** Tiny local HTTP servers (127.0.0.1, port 0) that record what the client sent and reply as told. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync, readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { ManualClock, type Clock } from "../../src/tools/clock.js";

export interface Hit {
  method: string;
  path: string;
  contentType: string | undefined;
  raw: string;
  form: Record<string, string>;
}

export interface Reply {
  status?: number;
  /** Serialized as JSON with `application/json`. */
  json?: unknown;
  /** Sent verbatim (use with `contentType`). */
  body?: string;
  contentType?: string;
}

/** `"hang"`: never answer (for timeouts). */
export type Handler = (hit: Hit, index: number) => Reply | "hang";

export interface TestServer {
  url: string;
  hits: Hit[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than hits). */
  connections(): number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const hit: Hit = {
        method: req.method ?? "",
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        raw,
        form: Object.fromEntries(new URLSearchParams(raw)),
      };
      hits.push(hit);
      const reply = handler(hit, hits.length - 1);
      if (reply === "hang") return;
      const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? "");
      res.writeHead(reply.status ?? 200, {
        "content-type": reply.contentType ?? (reply.json !== undefined ? "application/json" : "text/plain"),
      });
      res.end(body);
    });
  });
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const FIXTURE_DIR = fileURLToPath(new URL("../fixtures/upstream/", import.meta.url));

export function fixtureNames(): string[] {
  return readdirSync(FIXTURE_DIR).filter((f) => f.endsWith(".json")).sort();
}

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(FIXTURE_DIR + name, "utf8")) as unknown;
}

/** A clock whose sleeps resolve at once and are recorded (backoff assertions without waiting). */
export class InstantClock implements Clock {
  readonly sleeps: number[] = [];
  private readonly inner = new ManualClock();
  now(): number {
    return this.inner.now();
  }
  setTimeout(fn: () => void, ms: number) {
    return this.inner.setTimeout(fn, ms);
  }
  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    return Promise.resolve();
  }
}

/** WIB wall time as the UTC instant it denotes. */
export function wib(text: string): Date {
  return new Date(`${text.replace(" ", "T")}+07:00`);
}
