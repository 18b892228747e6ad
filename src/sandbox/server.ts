/**
 * The HTTP face of the sandbox: routing, body parsing, request recording and fault injection.
 * It must never crash on bad input: every path ends in a JSON (or deliberate HTML) answer.
 */
import http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { KNOWN_PATHS, type Params } from "./api.js";
import { html } from "../tools/html.js";

export type FaultKind = "timeout" | "html502" | "html200" | "malformed" | "reject";

/** An older or odd answer shape: fields left out of `data` (of each list item, or of item `item`). */
export interface Reshape {
  omit: readonly string[];
  item?: number;
}

function reshaped(answer: unknown, r: Reshape): unknown {
  const a = answer as { data?: unknown };
  const strip = (o: unknown) => {
    if (typeof o !== "object" || o === null) return o;
    const copy = { ...(o as Record<string, unknown>) };
    for (const f of r.omit) delete copy[f];
    return copy;
  };
  if (Array.isArray(a.data)) return { ...a, data: a.data.map((o, i) => (r.item === undefined || r.item === i ? strip(o) : o)) };
  return { ...a, data: strip(a.data) };
}
export interface RecordedCall {
  path: string;
  body: Record<string, string>;
  /** When it arrived, on the sandbox's clock (tests read a schedule from it). */
  at: number;
}

export interface ServerDeps {
  handle(path: string, params: Params, ip: string): unknown;
  /** GET /qr/:id -> the deposit's qr_string, for the hosted QR image. */
  qrString(id: string): string | undefined;
  /** POST /pay/:id -> simulated payer pays an e-wallet deposit. Throws when it cannot. */
  pay(id: string): void;
  /** The sandbox's clock, for RecordedCall.at. */
  now(): number;
}

const MAX_BODY = 64 * 1024;
const MAX_CALLS = 200_000;
/** A "timeout" fault holds the response this long unless the sandbox closes first. */
const HOLD_MS = 10 * 60_000;

const CLOUDFLARE_502 =
  '<!DOCTYPE html>\n<html lang="en-US"><head><title>atlantich2h.com | 502: Bad gateway</title></head>' +
  '<body><div id="cf-error-details"><h1>Bad gateway</h1><span>Error code 502</span>' +
  "<p>The web server reported a bad gateway error.</p><p>Cloudflare Ray ID: 8f1c2d3e4a5b6c7d</p></div></body></html>";
const CLOUDFLARE_CHALLENGE =
  '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>' +
  '<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">' +
  "<h1>atlantich2h.com</h1><p>Checking if the site connection is secure</p>" +
  '<noscript>Enable JavaScript and cookies to continue</noscript></div></body></html>';

export class SandboxServer {
  readonly http: http.Server;
  private readonly faults = new Map<string, FaultKind[]>();
  private readonly reshapes = new Map<string, Reshape[]>();
  private log: RecordedCall[] = [];
  private readonly held = new Set<ServerResponse>();
  /** Calls a "timeout" fault or holdNext() holds, per path, until their client gives up or the hold ends (hanging()). */
  private readonly hung = new Map<string, number>();
  private readonly gates = new Map<string, Promise<void>[]>();
  /** Every answer waits this long (a slow provider, for the playground); real time, like a network. */
  private latencyMs = 0;

  constructor(private readonly deps: ServerDeps) {
    this.http = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
      this.serve(req, res).catch(() => {
        if (!res.headersSent) sendJson(res, 500, { status: false, message: "Kesalahan internal sandbox", code: 500 });
        else res.destroy();
      });
    });
    this.http.on("clientError", (_err, socket) => socket.destroy());
  }

  fault(endpoint: string, kind: FaultKind, times = 1): void {
    const path = endpoint.startsWith("/") ? endpoint : `/${endpoint}`;
    const queue = this.faults.get(path) ?? [];
    for (let i = 0; i < times; i++) queue.push(kind);
    this.faults.set(path, queue);
  }

  /** The faults still queued for `endpoint` (each spoils one call, in the order queued). */
  faultsQueued(endpoint: string): number {
    return this.faults.get(endpoint.startsWith("/") ? endpoint : `/${endpoint}`)?.length ?? 0;
  }

  /** Calls held (a "timeout" fault, holdNext()) whose client has not given up yet (of `endpoint`, or all). */
  hanging(endpoint?: string): number {
    if (endpoint !== undefined) return this.hung.get(endpoint.startsWith("/") ? endpoint : `/${endpoint}`) ?? 0;
    let n = 0;
    for (const v of this.hung.values()) n += v;
    return n;
  }

  clearFaults(endpoint: string): void {
    this.faults.delete(endpoint.startsWith("/") ? endpoint : `/${endpoint}`);
  }

  /** Holds queued by holdNext() for `endpoint` that no call has taken yet. */
  holdsQueued(endpoint: string): number {
    return this.gates.get(endpoint.startsWith("/") ? endpoint : `/${endpoint}`)?.length ?? 0;
  }

  /** The next call to `endpoint` takes effect and is recorded; its answer waits until `release()`. */
  holdNext(endpoint: string): () => void {
    const path = endpoint.startsWith("/") ? endpoint : `/${endpoint}`;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.gates.set(path, [...(this.gates.get(path) ?? []), gate]);
    return release;
  }

  setLatency(ms: number): void {
    this.latencyMs = Math.max(0, ms);
  }

  /** The next answer of `endpoint` loses `fields` from its data (every list item, or only `item`). */
  reshape(endpoint: string, reshape: Reshape): void {
    const path = endpoint.startsWith("/") ? endpoint : `/${endpoint}`;
    this.reshapes.set(path, [...(this.reshapes.get(path) ?? []), reshape]);
  }

  calls(endpoint?: string): RecordedCall[] {
    const path = endpoint === undefined ? undefined : endpoint.startsWith("/") ? endpoint : `/${endpoint}`;
    return this.log.filter((c) => path === undefined || c.path === path).map((c) => ({ ...c, body: { ...c.body } }));
  }

  async listen(host: string, port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.http.once("error", reject);
      this.http.listen(port, host, () => {
        this.http.off("error", reject);
        resolve();
      });
    });
    const addr = this.http.address();
    if (!addr || typeof addr === "string") throw new Error("sandbox: no TCP address");
    return `http://${addr.family === "IPv6" ? `[${addr.address}]` : addr.address}:${addr.port}`;
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.held.clear();
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeAllConnections();
    await closed;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "") || "/";
    const extra = /^\/(qr|pay)\/([A-Za-z0-9]+)$/.exec(path);
    if (extra) return this.serveExtra(req, res, extra[1]!, extra[2]!);
    if (!KNOWN_PATHS.has(path)) return sendJson(res, 404, { status: false, message: "Not Found", code: 404 });
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return sendJson(res, 405, { status: false, message: "Method Not Allowed", code: 405 });
    }
    let params: Params;
    try {
      params = parseBody(await readBody(req), req.headers["content-type"]);
    } catch (err) {
      const tooBig = err instanceof Error && err.message === "too large";
      return sendJson(res, tooBig ? 413 : 400, { status: false, message: tooBig ? "Request terlalu besar" : "Format request tidak valid", code: 400 });
    }
    this.record({ path, body: params, at: this.deps.now() });

    const fault = this.faults.get(path)?.shift();
    if (fault === "html502") return sendText(res, 502, "text/html; charset=UTF-8", CLOUDFLARE_502);
    if (fault === "html200") return sendText(res, 200, "text/html; charset=UTF-8", CLOUDFLARE_CHALLENGE);
    if (fault === "reject") return sendJson(res, 200, { status: false, message: "Transaksi Gagal", code: 201 });

    const ip = (req.socket.remoteAddress ?? "0.0.0.0").replace(/^::ffff:/, "");
    const answer = this.deps.handle(path, params, ip);
    // timeout and malformed reach the origin: the request takes effect, only the answer is lost.
    if (fault === "timeout") return this.hold(res, path);
    if (fault === "malformed") return sendText(res, 200, "application/json", JSON.stringify(answer).slice(0, 25));
    const reshape = this.reshapes.get(path)?.shift();
    const gate = this.gates.get(path)?.shift();
    if (gate) {
      const over = this.hangs(path);
      res.once("close", over);
      this.held.add(res);
      await gate;
      this.held.delete(res);
      over();
      if (res.destroyed) return;
    }
    if (this.latencyMs > 0) {
      // Held like a timeout so close() does not wait for it.
      this.held.add(res);
      await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
      this.held.delete(res);
      if (res.destroyed) return;
    }
    sendJson(res, 200, reshape ? reshaped(answer, reshape) : answer);
  }

  private hold(res: ServerResponse, path: string): void {
    this.held.add(res);
    const over = this.hangs(path);
    const timer = setTimeout(() => res.destroy(), HOLD_MS);
    timer.unref();
    res.on("close", () => {
      clearTimeout(timer);
      this.held.delete(res);
      over();
    });
  }

  /** Counts a held call of `path` in hanging(); the function returned ends that, once. */
  private hangs(path: string): () => void {
    this.hung.set(path, (this.hung.get(path) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.hung.get(path) ?? 1) - 1;
      if (left > 0) this.hung.set(path, left);
      else this.hung.delete(path);
    };
  }

  private record(call: RecordedCall): void {
    this.log.push(call);
    if (this.log.length > MAX_CALLS) this.log = this.log.slice(-MAX_CALLS / 2);
  }

  /** Demo conveniences: the hosted QR image and an e-wallet "payment page". */
  private async serveExtra(req: IncomingMessage, res: ServerResponse, kind: string, id: string): Promise<void> {
    if (kind === "qr" && req.method === "GET") {
      const text = this.deps.qrString(id);
      if (!text) return sendJson(res, 404, { status: false, message: "Not Found", code: 404 });
      // Loaded on first use, like render/qr.ts: a sandbox start does not pay for it.
      const { default: QRCode } = await import("qrcode");
      return sendBytes(res, 200, "image/png", await QRCode.toBuffer(text, { margin: 2, width: 360 }));
    }
    if (kind === "pay" && req.method === "GET") {
      return sendText(res, 200, "text/html; charset=UTF-8",
        `<!DOCTYPE html><html><body><h1>Sandbox e-wallet</h1><p>Deposit ${id}</p>` +
        `<form method="post"><button type="submit">Bayar sekarang</button></form></body></html>`);
    }
    if (kind === "pay" && req.method === "POST") {
      req.resume();
      try {
        this.deps.pay(id);
        return sendText(res, 200, "text/html; charset=UTF-8", "<!DOCTYPE html><html><body><h1>Pembayaran diterima</h1></body></html>");
      } catch (err) {
        const msg = err instanceof Error ? err.message : "gagal";
        return sendText(res, 409, "text/html; charset=UTF-8", `<!DOCTYPE html><html><body><h1>Gagal</h1><p>${html(msg)}</p></body></html>`);
      }
    }
    res.setHeader("allow", kind === "qr" ? "GET" : "GET, POST");
    return sendJson(res, 405, { status: false, message: "Method Not Allowed", code: 405 });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error("too large"));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Form-urlencoded (the contract); JSON objects are accepted too for hand testing. First value wins. */
function parseBody(text: string, contentType: string | undefined): Params {
  // No prototype: a field named "__proto__" or "constructor" is just a field.
  const out = Object.create(null) as Params;
  if (contentType?.includes("application/json")) {
    const value: unknown = text.trim() === "" ? {} : JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not an object");
    for (const [k, v] of Object.entries(value)) {
      if (v !== null && v !== undefined) out[k] = typeof v === "object" ? JSON.stringify(v) : String(v);
    }
    return out;
  }
  for (const [k, v] of new URLSearchParams(text)) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, "application/json", JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, type: string, text: string): void {
  sendBytes(res, status, type, Buffer.from(text, "utf8"));
}

function sendBytes(res: ServerResponse, status: number, type: string, bytes: Buffer): void {
  res.writeHead(status, { "content-type": type, "content-length": bytes.length });
  res.end(bytes);
}

