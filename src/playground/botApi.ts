/**
 * An in-memory Telegram Bot API: the test suite's fake and the playground's emulator (one, not two).
 * Long (over 350 lines) because it is one protocol: transports, recording, chat state and the
 * methods share the same private state.
 *
 * Two ways to plug a grammY bot into it:
 *
 * 1. In-process (fast, the default for unit/flow tests):
 *
 *    ```ts
 *    const fake = new FakeBotApi();
 *    const bot = new Bot(FAKE_BOT_TOKEN, { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch } });
 *    ```
 *
 *    Every Bot API call (handlers, conversations, `bot.api`, transformers like auto-retry) goes
 *    through `fake.fetch`, which decodes the request (JSON or multipart with uploaded files),
 *    records it in `fake.calls` and answers like Telegram would.
 *
 * 2. Real HTTP (for running a whole bot process / `bot.start()` / @grammyjs/runner):
 *
 *    ```ts
 *    const server = await fake.startServer();   // http://127.0.0.1:<port>
 *    const bot = new Bot(token, { client: { apiRoot: server.apiRoot } });
 *    fake.pushUpdate({ message: ... });          // delivered through getUpdates long polling
 *    await fake.waitFor((c) => c.method === "sendMessage");
 *    await server.close();
 *    ```
 *
 * Besides answering, the fake keeps the state of every chat (`messages(chatId)`: what the user
 * currently sees after edits and deletions), can inject faults (`failNext`, `setResponder`) and
 * can emulate flood control (`limitRate`). In `strict` mode (default) it also rejects what real
 * Telegram rejects and bots commonly get wrong: unparsable `parse_mode` text, texts over 4096 /
 * captions over 1024 characters, callback_data over 64 bytes, and edits that change nothing
 * ("message is not modified").
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type {
  Chat,
  InlineKeyboardButton,
  KeyboardButton,
  Message,
  PhotoSize,
  Update,
  UserFromGetMe,
} from "grammy/types";
import { FAKE_BOT_INFO } from "./botInfo.js";
import { parseFormatted, renderFormatted } from "./telegramFormat.js";

// =============================================================================================
// Public types
// =============================================================================================

/** What the Bot API answers, exactly as it appears on the wire. */
export type ApiResponse = ApiSuccess | ApiFailure;
export interface ApiSuccess {
  ok: true;
  result: unknown;
}
export interface ApiFailure {
  ok: false;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** Builds a success response (for `setResponder`). */
export const apiOk = (result: unknown = true): ApiSuccess => ({ ok: true, result });

/** Builds an error response like Telegram's (for `setResponder`). */
export function apiError(error_code: number, description: string, retryAfter?: number): ApiFailure {
  return retryAfter === undefined
    ? { ok: false, error_code, description }
    : { ok: false, error_code, description, parameters: { retry_after: retryAfter } };
}

/** Common Telegram errors, ready to pass to `failNext` / return from a responder. */
export const TelegramErrors = {
  tooManyRequests: (retryAfter: number) =>
    apiError(429, `Too Many Requests: retry after ${retryAfter}`, retryAfter),
  blocked: () => apiError(403, "Forbidden: bot was blocked by the user"),
  userDeactivated: () => apiError(403, "Forbidden: user is deactivated"),
  chatNotFound: () => apiError(400, "Bad Request: chat not found"),
  internal: () => apiError(500, "Internal Server Error"),
} as const;

/** An uploaded file (multipart part), bytes kept so a test can decode e.g. a QR photo. */
export interface UploadedFile {
  filename?: string;
  bytes: Buffer;
}

/** One Bot API request as the fake received it. */
export interface RecordedCall {
  /** Position in the log since construction (not reset by `clear()`); increases monotonically. */
  seq: number;
  method: string;
  /**
   * Decoded parameters. Multipart fields are decoded back to JSON values (reply_markup is an
   * object, chat_id a number); a file field holds its `attach://<id>` reference.
   */
  payload: Record<string, unknown>;
  /**
   * Uploaded files. Keyed by the payload field that referenced them (`photo`, `document`, ...);
   * files referenced from nested values (sendMediaGroup's `media[i].media`) are keyed by their
   * attach id.
   */
  files: Record<string, UploadedFile>;
  /** Clock time (ms) when the request arrived. */
  at: number;
  /** The answer; undefined while a long poll is still waiting. */
  response?: ApiResponse;
  /** `"fetch"` for the in-process client, `"http"` for the real server. */
  via: "fetch" | "http";
  /** Context tag (see `runTagged`); chat.ts uses it to attribute calls to a user action. */
  tag?: unknown;
}

/** Error to inject with `failNext`. */
export type FaultSpec =
  | { error_code: 429; description?: string; retry_after: number }
  | { error_code: number; description: string; retry_after?: number };

export interface FailOptions {
  /** How many matching calls fail (default 1). */
  times?: number;
  /** Only calls whose `chat_id` equals this fail. */
  chatId?: number | string;
}

/**
 * Custom behaviour: return a response to override the default answer, or undefined to fall
 * through to the normal behaviour. Runs after `failNext` faults and before the rate limiter.
 */
export type Responder = (
  method: string,
  payload: Record<string, unknown>,
  call: RecordedCall,
) => ApiResponse | undefined;

/** A clock: `() => ms` or anything with `now(): ms` (e.g. src/tools/clock.ts `Clock`). */
export type ClockLike = (() => number) | { now(): number };

export interface RateLimitOptions {
  /** Accepted calls across all chats within any sliding 1s window (Telegram: ~30). */
  perSecond: number;
  /** Optional per-chat limit within the same window (Telegram: ~1 per private chat). */
  perChatPerSecond?: number;
  /** Time source; defaults to the fake's clock. */
  clock?: ClockLike;
  /** Which methods count; default: those that post messages (send*, copy*, forward*). */
  counts?: (method: string) => boolean;
}

/** A message in a chat as the user currently sees it. */
export interface FakeMessage {
  messageId: number;
  chatId: number | string;
  /** Who posted it: the bot (API calls) or the user (chat.ts helpers). */
  from: "bot" | "user";
  /** "text", "photo", "document", ... (the Message field that carries the content). */
  kind: string;
  /** Visible text (markup removed) for text messages. */
  text?: string;
  /** Visible caption (markup removed) for media messages. */
  caption?: string;
  /** Text or caption exactly as sent, with its parse_mode. */
  raw?: string;
  parseMode?: string;
  /** Inline keyboard currently attached (undefined once removed by an edit). */
  inlineKeyboard?: InlineKeyboardButton[][];
  /** Bytes of the photo/document/etc., when the bot uploaded (or re-sent) a file or the user sent a stored photo. */
  file?: UploadedFile;
  deleted: boolean;
  edited: boolean;
  /** The Message object as the API would return it now (kept in sync with edits). */
  message: Message;
  /** `seq` of the call that last created or changed it (used for "latest reply"). */
  touchedSeq: number;
}

export interface FakeBotApiOptions {
  /** Identity answered by getMe and used as `from` of sent messages. Default FAKE_BOT_INFO. */
  botInfo?: UserFromGetMe;
  /** Time source for `at`, message dates and update dates. Default Date.now. */
  clock?: ClockLike;
  /** Reject what Telegram rejects (bad markup, too long, not modified...). Default true. */
  strict?: boolean;
  /** Keep only the newest this many calls in `calls` (a long-running playground). Default: all. */
  maxCalls?: number;
}

/**
 * What changed, for a live view (the playground's page): a message created, edited, deleted or
 * sent by the user; a callback query answered (toast or alert); the command list set.
 */
export type EmulatorEvent =
  | { type: "message"; message: FakeMessage }
  | { type: "callbackAnswer"; callbackQueryId: string; text?: string; showAlert: boolean }
  | { type: "commands" };

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

// =============================================================================================
// Internals
// =============================================================================================

/** Thrown inside method handlers to answer with an error. */
class ApiErrorResponse extends Error {
  constructor(readonly response: ApiFailure) {
    super(response.description);
  }
}
const badRequest = (detail: string) => new ApiErrorResponse(apiError(400, `Bad Request: ${detail}`));

interface Fault {
  method: string;
  spec: FaultSpec;
  remaining: number;
  chatId?: number | string;
}

interface ChatState {
  chat: Chat;
  lastMessageId: number;
  messages: Map<number, FakeMessage>;
  /** Rows of the reply keyboard currently shown (undefined: none / removed). */
  replyKeyboard?: string[][];
}

interface Poller {
  wake: () => void;
}

interface ParsedRequest {
  payload: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}

/** Methods that put or change content in a chat (used by `sentTo`, `replies`). */
export function isChatContentMethod(method: string): boolean {
  return (
    (method.startsWith("send") && method !== "sendChatAction") ||
    method.startsWith("editMessage") ||
    method.startsWith("copyMessage") ||
    method.startsWith("forwardMessage")
  );
}

/** Methods that post new messages (default for the rate limiter). */
function isPostingMethod(method: string): boolean {
  return (
    (method.startsWith("send") && method !== "sendChatAction") ||
    method.startsWith("copyMessage") ||
    method.startsWith("forwardMessage")
  );
}

const toClockFn = (clock: ClockLike | undefined): (() => number) =>
  clock === undefined ? () => Date.now() : typeof clock === "function" ? clock : () => clock.now();

/** Keys whose multipart string values are numbers (chat ids, message ids, dimensions...). */
const NON_NUMERIC_ID_KEYS = new Set([
  "callback_query_id", "inline_message_id", "file_id", "business_connection_id", "custom_emoji_id",
  "message_effect_id", "inline_query_id", "shipping_query_id", "pre_checkout_query_id", "web_app_query_id",
]);
const NUMERIC_KEYS = new Set(["duration", "width", "height", "length", "offset", "limit", "timeout", "cache_time"]);
/** Free-text fields: never decoded, even when they look like JSON ("[PROMO] ..."). */
const TEXT_KEYS = new Set(["text", "caption", "title", "description", "question", "parse_mode", "emoji", "action"]);
const BOOLEAN_KEYS = /^(disable_|protect_|has_spoiler|show_caption_above_media|allow_|supports_streaming|is_)/;

/** Turns multipart/urlencoded string values back into the JSON values grammY serialised. */
function decodeFormValue(key: string, value: string): unknown {
  if (TEXT_KEYS.has(key)) return value;
  if (/^[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (/^-?\d+$/.test(value) && ((key.endsWith("_id") && !NON_NUMERIC_ID_KEYS.has(key)) || NUMERIC_KEYS.has(key))) {
    return Number(value);
  }
  if ((value === "true" || value === "false") && BOOLEAN_KEYS.test(key)) return value === "true";
  return value;
}

/** Reads a whole body (string, bytes, Node stream, web stream, async iterable) into a Buffer. */
async function readBody(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  if (typeof body === "object" && Symbol.asyncIterator in body) {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }
  throw new Error(`FakeBotApi: unsupported request body type ${Object.prototype.toString.call(body)}`);
}

/**
 * Minimal multipart/form-data parser. Written by hand because grammY emits headers like
 * `content-disposition:form-data;name="photo";filename=photo.jpg` (no spaces, unquoted
 * filename), which strict parsers may reject.
 */
function parseMultipart(body: Buffer, boundary: string): { fields: Record<string, string>; files: Record<string, UploadedFile> } {
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  // Every part is preceded by CRLF--boundary (the first one without CRLF; we prepend it).
  const data = Buffer.concat([Buffer.from("\r\n"), body]);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let pos = data.indexOf(delimiter);
  while (pos >= 0) {
    let start = pos + delimiter.length;
    if (data.subarray(start, start + 2).toString() === "--") break; // closing delimiter
    // skip transport padding and the CRLF after the delimiter
    while (data[start] === 0x20 || data[start] === 0x09) start++;
    if (data.subarray(start, start + 2).toString() === "\r\n") start += 2;
    const next = data.indexOf(delimiter, start);
    if (next < 0) break;
    const part = data.subarray(start, next);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const content = part.subarray(headerEnd + 4);
      const name = /(?:^|[;\s])name="([^"]*)"/i.exec(headers)?.[1];
      const filenameMatch = /filename\*?=(?:"([^"]*)"|([^;\r\n]*))/i.exec(headers);
      if (name !== undefined) {
        if (filenameMatch) {
          const filename = (filenameMatch[1] ?? filenameMatch[2] ?? "").trim();
          files[name] = { bytes: Buffer.from(content), ...(filename ? { filename } : {}) };
        } else {
          fields[name] = content.toString("utf8");
        }
      }
    }
    pos = next;
  }
  return { fields, files };
}

/**
 * Decodes a request body into payload + files, resolving `attach://<id>` references so files
 * are keyed by the payload field that uses them.
 */
async function parseRequest(contentType: string, body: unknown, query: URLSearchParams | undefined): Promise<ParsedRequest> {
  const payload: Record<string, unknown> = {};
  let rawFiles: Record<string, UploadedFile> = {};
  query?.forEach((v, k) => (payload[k] = decodeFormValue(k, v)));

  if (typeof FormData !== "undefined" && body instanceof FormData) {
    for (const [k, v] of body.entries()) {
      if (typeof v === "string") payload[k] = decodeFormValue(k, v);
      else rawFiles[k] = { bytes: Buffer.from(await v.arrayBuffer()), ...(v.name ? { filename: v.name } : {}) };
    }
  } else if (body instanceof URLSearchParams) {
    body.forEach((v, k) => (payload[k] = decodeFormValue(k, v)));
  } else {
    const buf = await readBody(body);
    const type = contentType.toLowerCase();
    if (buf.length === 0) {
      // no body (GET, or a method without parameters)
    } else if (type.startsWith("multipart/form-data")) {
      const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
      const b = boundary?.[1] ?? boundary?.[2];
      if (!b) throw badRequest("multipart boundary missing");
      const parsed = parseMultipart(buf, b.trim());
      for (const [k, v] of Object.entries(parsed.fields)) payload[k] = decodeFormValue(k, v);
      rawFiles = parsed.files;
    } else if (type.startsWith("application/x-www-form-urlencoded")) {
      new URLSearchParams(buf.toString("utf8")).forEach((v, k) => (payload[k] = decodeFormValue(k, v)));
    } else {
      let json: unknown;
      try {
        json = JSON.parse(buf.toString("utf8"));
      } catch {
        throw badRequest("can't parse JSON body");
      }
      if (json !== null && typeof json === "object" && !Array.isArray(json)) Object.assign(payload, json);
    }
  }

  // Re-key files by the top-level field that references them ("photo": "attach://abc").
  const files: Record<string, UploadedFile> = {};
  const used = new Set<string>();
  for (const [k, v] of Object.entries(payload)) {
    if (typeof v === "string" && v.startsWith("attach://")) {
      const id = v.slice("attach://".length);
      const f = rawFiles[id];
      if (f) {
        files[k] = f;
        used.add(id);
      }
    }
  }
  for (const [id, f] of Object.entries(rawFiles)) if (!used.has(id)) files[id] = f;
  return { payload, files };
}

/** Reads width/height from a PNG header (IHDR) or a JPEG frame header (SOFn), if the bytes are one. */
export function imageSize(bytes: Buffer | undefined): { width: number; height: number } | undefined {
  if (!bytes) return undefined;
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  // JPEG: walk the marker segments to the first start-of-frame (C0-CF except C4 DHT, C8, CC DAC).
  let pos = 2;
  while (pos + 9 < bytes.length) {
    if (bytes[pos] !== 0xff) return undefined;
    const marker = bytes[pos + 1]!;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2; // markers without a length
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(pos + 5), width: bytes.readUInt16BE(pos + 7) };
    }
    pos += 2 + bytes.readUInt16BE(pos + 2);
  }
  return undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// =============================================================================================
// FakeBotApi
// =============================================================================================

export class FakeBotApi {
  /** Every request received, oldest first (cleared by `clear()`). */
  readonly calls: RecordedCall[] = [];
  readonly botInfo: UserFromGetMe;
  readonly strict: boolean;

  private readonly now: () => number;
  private seq = 0;
  private faults: Fault[] = [];
  private responder: Responder | undefined;
  private drops: { method: string; remaining: number; chatId?: number | string; error?: (url: string) => Error }[] = [];
  private limiter:
    | { perSecond: number; perChat?: number; now: () => number; counts: (m: string) => boolean; global: number[]; byChat: Map<string, number[]> }
    | undefined;
  private readonly chats = new Map<string, ChatState>();
  private readonly updates: Update[] = [];
  private lastUpdateId = 100_000;
  private pollers = new Set<Poller>();
  private closed = false;
  private fileCounter = 0;
  private readonly storedFiles = new Map<string, { bytes?: Buffer; path: string; size?: number }>();
  private commands = new Map<string, unknown[]>();
  private readonly tags = new AsyncLocalStorage<unknown>();
  private readonly listeners = new Set<(e: EmulatorEvent) => void>();
  private readonly maxCalls: number;

  constructor(options: FakeBotApiOptions = {}) {
    this.botInfo = options.botInfo ?? FAKE_BOT_INFO;
    this.strict = options.strict ?? true;
    this.now = toClockFn(options.clock);
    this.maxCalls = options.maxCalls ?? Infinity;
  }

  /** Calls `listener` on every change a chat's viewer would see (EmulatorEvent). Returns the unsubscribe. */
  onChange(listener: (e: EmulatorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: EmulatorEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a viewer's failure is not the bot's: the API call still succeeds
      }
    }
  }

  /**
   * The command menu a private chat with `languageCode` shows, resolved like Telegram: the
   * narrowest scope with a list for that language, then without a language.
   */
  commandsFor(languageCode: string | undefined): { command: string; description: string }[] {
    for (const type of ["all_private_chats", "default"]) {
      for (const lang of languageCode ? [languageCode, ""] : [""]) {
        const list = this.commands.get(JSON.stringify([{ type }, lang]));
        if (list) return list as { command: string; description: string }[];
      }
    }
    return [];
  }

  // ------------------------------------------------------------------------------------------
  // Transport: in-process fetch
  // ------------------------------------------------------------------------------------------

  /**
   * Drop-in for grammY's `client.fetch`. Accepts `(url, init)` as grammY calls it (JSON string
   * body, or a multipart Node stream when uploading) and resolves to a web `Response` whose
   * HTTP status equals the Telegram error_code on failure. Honours `init.signal` (long polls
   * are released when grammY aborts them, e.g. on `bot.stop()`).
   */
  readonly fetch = async (input: string | URL | { url: string }, init: FakeFetchInit = {}): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = methodFromPath(url.pathname);
    if (method === undefined) return jsonResponse(404, apiError(404, "Not Found"));
    const headers = new Headers((init.headers ?? undefined) as ConstructorParameters<typeof Headers>[0]);
    let parsed: ParsedRequest;
    try {
      parsed = await parseRequest(headers.get("content-type") ?? "", init.body, url.searchParams);
    } catch (e) {
      if (e instanceof ApiErrorResponse) return jsonResponse(400, e.response);
      throw e;
    }
    const drop = this.takeDrop(method, parsed.payload);
    if (drop) throw drop.error?.(url.href) ?? networkError(url.href);
    const signal = init.signal ?? undefined;
    const response = await this.dispatch(method, parsed, "fetch", signal);
    if (signal?.aborted) {
      // what a real fetch does when the request is aborted
      throw Object.assign(new Error("The operation was aborted."), { name: "AbortError", type: "aborted" });
    }
    return jsonResponse(response.ok ? 200 : response.error_code, response);
  };

  /**
   * Runs `fn` so that every API call made inside it (across awaits) is recorded with
   * `call.tag === tag`. chat.ts wraps `bot.handleUpdate` in it to know which calls an update made.
   */
  runTagged<T>(tag: unknown, fn: () => T): T {
    return this.tags.run(tag, fn);
  }

  // ------------------------------------------------------------------------------------------
  // Transport: real HTTP server
  // ------------------------------------------------------------------------------------------

  /**
   * Serves `POST|GET /bot<token>/<method>` (and `/file/bot<token>/<file_path>` downloads) on
   * 127.0.0.1 with a random port. Any token is accepted.
   */
  async startServer(): Promise<FakeServer> {
    this.closed = false;
    const inFlight = { count: 0 };
    const server = http.createServer((req, res) => {
      inFlight.count++;
      void this.serveHttp(req, res)
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
        this.closed = true;
        this.releasePollers();
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

  private async serveHttp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const fileMatch = /^\/file\/bot[^/]+\/(.+)$/.exec(url.pathname);
    if (fileMatch) {
      const path = decodeURIComponent(fileMatch[1]!);
      const file = [...this.storedFiles.values()].find((f) => f.path === path);
      if (!file?.bytes) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(file.bytes);
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
    let parsed: ParsedRequest;
    try {
      parsed = await parseRequest(String(req.headers["content-type"] ?? ""), req, url.searchParams);
    } catch (e) {
      if (e instanceof ApiErrorResponse) return send(e.response);
      throw e;
    }
    if (this.takeDrop(method, parsed.payload)) {
      req.socket.destroy(); // the client sees a reset connection, no answer
      return;
    }
    send(await this.dispatch(method, parsed, "http", controller.signal));
  }

  // ------------------------------------------------------------------------------------------
  // Recording and inspection
  // ------------------------------------------------------------------------------------------

  /** The `seq` the next recorded call will get (a cursor for "calls since now"). */
  get nextSeq(): number {
    return this.seq;
  }

  /** All calls of one method, oldest first. */
  callsOf(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** The latest call (of `method`, if given). Note: in polling mode that is often getUpdates. */
  lastCall(method?: string): RecordedCall | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const c = this.calls[i]!;
      if (method === undefined || c.method === method) return c;
    }
    return undefined;
  }

  /**
   * Successful calls that put or changed content in `chatId` (send*, editMessage*, copyMessage,
   * forwardMessage...; not sendChatAction), oldest first. Failed attempts (e.g. a 429 that
   * auto-retry repeated) are excluded so each delivered message appears once.
   */
  sentTo(chatId: number | string): RecordedCall[] {
    return this.calls.filter(
      (c) => isChatContentMethod(c.method) && c.response?.ok === true && sameId(c.payload.chat_id, chatId),
    );
  }

  /** Visible text of a content call (text or caption, markup removed), if any. */
  textOf(call: RecordedCall): string | undefined {
    const raw = call.payload.text ?? call.payload.caption;
    return typeof raw === "string" ? renderFormatted(raw, call.payload.parse_mode) : undefined;
  }

  /** Empties the call log (chat state, faults, queued updates are kept; see `reset`). */
  clear(): void {
    this.calls.length = 0;
  }

  /** Back to a fresh fake: calls, chats, faults, responder, rate limit, queued updates. */
  reset(): void {
    this.clear();
    this.chats.clear();
    this.faults = [];
    this.drops = [];
    this.responder = undefined;
    this.limiter = undefined;
    this.updates.length = 0;
    this.commands.clear();
  }

  /**
   * Resolves with the first recorded call (already recorded or future) matching `predicate`
   * (or having that method name) that has been answered (`answered: false` also matches calls
   * still waiting, like a pending long poll). Polls every 10 ms; rejects after `timeoutMs`
   * listing the methods seen. Meant for real-process tests where there is nothing to await.
   */
  async waitFor(
    predicate: string | ((call: RecordedCall) => boolean),
    timeoutMs = 5_000,
    opts: { answered?: boolean } = {},
  ): Promise<RecordedCall> {
    const match = typeof predicate === "string" ? (c: RecordedCall) => c.method === predicate : predicate;
    const answered = opts.answered ?? true;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.calls.find((c) => (!answered || c.response !== undefined) && match(c));
      if (found) return found;
      if (Date.now() >= deadline) {
        const seen = this.calls.map((c) => c.method).slice(-20).join(", ") || "(none)";
        throw new Error(`FakeBotApi.waitFor: no matching call within ${timeoutMs} ms. Last calls: ${seen}`);
      }
      await sleep(10);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Chat state
  // ------------------------------------------------------------------------------------------

  /** Messages of a chat by message_id, including deleted ones (flagged `deleted`). */
  messages(chatId: number | string): FakeMessage[] {
    const state = this.chats.get(String(chatId));
    return state ? [...state.messages.values()].sort((a, b) => a.messageId - b.messageId) : [];
  }

  /** Messages the user can still see (not deleted). */
  visibleMessages(chatId: number | string): FakeMessage[] {
    return this.messages(chatId).filter((m) => !m.deleted);
  }

  /** One message by id. */
  message(chatId: number | string, messageId: number): FakeMessage | undefined {
    return this.chats.get(String(chatId))?.messages.get(messageId);
  }

  /** Labels of the reply keyboard (ReplyKeyboardMarkup) currently shown in the chat. */
  replyKeyboard(chatId: number | string): string[][] | undefined {
    return this.chats.get(String(chatId))?.replyKeyboard;
  }

  /** Declares how a chat looks (title, names) so sent messages carry a realistic `chat`. */
  registerChat(chat: Chat): void {
    this.chatState(chat.id).chat = chat;
  }

  /** Allocates the next message_id in a chat (message ids are per chat, shared by both sides). */
  nextMessageId(chatId: number | string): number {
    return ++this.chatState(chatId).lastMessageId;
  }

  /** Records a message the user sent (chat.ts does this) so the chat history is complete. */
  recordIncoming(message: Message): FakeMessage {
    const state = this.chatState(message.chat.id);
    state.lastMessageId = Math.max(state.lastMessageId, message.message_id);
    const kind = contentKind(message);
    const photoBytes = message.photo ? this.storedFiles.get(message.photo.at(-1)?.file_id ?? "")?.bytes : undefined;
    const fm: FakeMessage = {
      messageId: message.message_id,
      chatId: message.chat.id,
      from: "user",
      kind,
      ...(photoBytes ? { file: { bytes: photoBytes } } : {}),
      ...(message.text !== undefined ? { text: message.text, raw: message.text } : {}),
      ...(message.caption !== undefined ? { caption: message.caption, raw: message.caption } : {}),
      deleted: false,
      edited: false,
      message,
      touchedSeq: this.seq,
    };
    state.messages.set(message.message_id, fm);
    this.emit({ type: "message", message: { ...fm } }); // a snapshot: fm changes on later edits
    return fm;
  }

  /**
   * A photo the user sends (the playground's attach button): stores the bytes as Telegram does and
   * returns the message's `photo` sizes, largest last. Every size's file_id is kept (one set of
   * bytes for all), so the bot can send, group or getFile any of them.
   */
  storeUserPhoto(bytes: Buffer): PhotoSize[] {
    const fileId = this.storeFile("photo", bytes);
    const sizes = photoSizes(
      { file_id: fileId, file_unique_id: uniqueIdOf(fileId), file_size: bytes.length },
      imageSize(bytes) ?? { width: 800, height: 800 },
    );
    const { path } = this.storedFiles.get(fileId)!;
    for (const s of sizes) if (!this.storedFiles.has(s.file_id)) this.storedFiles.set(s.file_id, { bytes, size: bytes.length, path: path.replace(/(\.\w+)$/, `_${s.width}$1`) });
    return sizes;
  }

  /** Bytes of a file the bot uploaded, by the file_id the fake assigned to it. */
  fileBytes(fileId: string): Buffer | undefined {
    return this.storedFiles.get(fileId)?.bytes;
  }

  // ------------------------------------------------------------------------------------------
  // Faults, custom behaviour, flood control
  // ------------------------------------------------------------------------------------------

  /**
   * Makes the next `times` (default 1) calls of `method` ("*" = any method except getUpdates),
   * optionally only for `chatId`, fail with `fault` (a FaultSpec or e.g. `TelegramErrors.blocked()`). Answered like Telegram: HTTP status =
   * error_code, body `{ ok: false, error_code, description, parameters: { retry_after } }`.
   */
  failNext(method: string, fault: FaultSpec | ApiFailure, opts: FailOptions = {}): void {
    const spec: FaultSpec =
      "ok" in fault
        ? { error_code: fault.error_code, description: fault.description, ...(fault.parameters?.retry_after !== undefined ? { retry_after: fault.parameters.retry_after } : {}) }
        : fault;
    this.faults.push({
      method,
      spec,
      remaining: opts.times ?? 1,
      ...(opts.chatId !== undefined ? { chatId: opts.chatId } : {}),
    });
  }

  /**
   * Network fault: the next `times` (default 1) calls of `method` ("*" = any but getUpdates),
   * optionally only for `chatId`, get no answer. In-process, fetch throws `error(url)` (default:
   * shaped like node-fetch's FetchError, the full request URL, token included, in its message);
   * over HTTP the connection is reset. Nothing is recorded: Telegram never saw the request.
   */
  dropNext(method: string, opts: FailOptions & { error?: (url: string) => Error } = {}): void {
    this.drops.push({
      method,
      remaining: opts.times ?? 1,
      ...(opts.chatId !== undefined ? { chatId: opts.chatId } : {}),
      ...(opts.error ? { error: opts.error } : {}),
    });
  }

  private takeDrop(method: string, payload: Record<string, unknown>) {
    const i = this.drops.findIndex(
      (d) =>
        (d.method === method || (d.method === "*" && method !== "getUpdates")) &&
        (d.chatId === undefined || sameId(payload.chat_id, d.chatId)),
    );
    if (i < 0) return undefined;
    const drop = this.drops[i]!;
    if (--drop.remaining <= 0) this.drops.splice(i, 1);
    return drop;
  }

  /** Installs (or with undefined removes) a responder for custom behaviour. */
  setResponder(responder: Responder | undefined): void {
    this.responder = responder;
  }

  /**
   * Emulates flood control: posting calls beyond `perSecond` (or `perChatPerSecond` for one
   * chat) within a sliding 1 s window get 429 with `retry_after` = seconds until the window frees
   * (at least 1). Rejected calls do not count. `limitRate(undefined)` turns it off.
   */
  limitRate(options: RateLimitOptions | undefined): void {
    this.limiter = options && {
      perSecond: options.perSecond,
      ...(options.perChatPerSecond !== undefined ? { perChat: options.perChatPerSecond } : {}),
      now: options.clock ? toClockFn(options.clock) : this.now,
      counts: options.counts ?? isPostingMethod,
      global: [],
      byChat: new Map(),
    };
  }

  // ------------------------------------------------------------------------------------------
  // Updates (getUpdates)
  // ------------------------------------------------------------------------------------------

  /** The next update_id (shared by pushUpdate and chat.ts so ids always increase). */
  nextUpdateId(): number {
    return ++this.lastUpdateId;
  }

  /**
   * Queues an update for getUpdates (assigning `update_id` if missing) and wakes long polls.
   * A user message in it is added to the chat history. Returns the queued update.
   */
  pushUpdate(update: Omit<Update, "update_id"> & { update_id?: number }): Update {
    const full = { ...update, update_id: update.update_id ?? this.nextUpdateId() } as Update;
    this.lastUpdateId = Math.max(this.lastUpdateId, full.update_id);
    if (full.message?.chat) this.recordIncoming(full.message);
    this.updates.push(full);
    for (const p of [...this.pollers]) p.wake();
    return full;
  }

  /** Updates queued and not yet confirmed by a getUpdates offset. */
  pendingUpdates(): readonly Update[] {
    return this.updates;
  }

  private releasePollers(): void {
    for (const p of [...this.pollers]) p.wake();
  }

  private async getUpdates(payload: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Update[]> {
    const offset = typeof payload.offset === "number" ? payload.offset : undefined;
    const limit = typeof payload.limit === "number" && payload.limit > 0 ? Math.min(payload.limit, 100) : 100;
    const timeoutS = typeof payload.timeout === "number" ? payload.timeout : 0;
    // An offset confirms (drops) all updates below it, like Telegram.
    if (offset !== undefined && offset > 0) {
      while (this.updates.length > 0 && this.updates[0]!.update_id < offset) this.updates.shift();
    }
    const deadline = Date.now() + timeoutS * 1000;
    while (this.updates.length === 0 && !this.closed && !signal?.aborted && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const poller: Poller = {
          wake: () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", poller.wake);
            this.pollers.delete(poller);
            resolve();
          },
        };
        const timer = setTimeout(poller.wake, Math.max(0, deadline - Date.now()));
        signal?.addEventListener("abort", poller.wake);
        this.pollers.add(poller);
      });
    }
    return this.updates.slice(0, limit);
  }

  // ------------------------------------------------------------------------------------------
  // Dispatch
  // ------------------------------------------------------------------------------------------

  private async dispatch(
    method: string,
    { payload, files }: ParsedRequest,
    via: "fetch" | "http",
    signal: AbortSignal | undefined,
  ): Promise<ApiResponse> {
    const tag = this.tags.getStore();
    const call: RecordedCall = {
      seq: this.seq++,
      method,
      payload,
      files,
      at: this.now(),
      via,
      ...(tag !== undefined ? { tag } : {}),
    };
    this.calls.push(call);
    if (this.calls.length > this.maxCalls) this.calls.splice(0, this.calls.length - this.maxCalls);
    let response: ApiResponse;
    try {
      response = this.takeFault(call) ?? this.responder?.(method, payload, call) ?? this.checkRate(call) ?? (await this.answer(call, signal));
    } catch (e) {
      if (!(e instanceof ApiErrorResponse)) throw e;
      response = e.response;
    }
    call.response = response;
    return response;
  }

  private takeFault(call: RecordedCall): ApiFailure | undefined {
    const i = this.faults.findIndex(
      (f) =>
        (f.method === call.method || (f.method === "*" && call.method !== "getUpdates")) &&
        (f.chatId === undefined || sameId(call.payload.chat_id, f.chatId)),
    );
    if (i < 0) return undefined;
    const fault = this.faults[i]!;
    if (--fault.remaining <= 0) this.faults.splice(i, 1);
    const { spec } = fault;
    const description = spec.description ?? `Too Many Requests: retry after ${spec.retry_after ?? 1}`;
    return apiError(spec.error_code, description, spec.retry_after);
  }

  private checkRate(call: RecordedCall): ApiFailure | undefined {
    const l = this.limiter;
    if (!l || !l.counts(call.method)) return undefined;
    const now = l.now();
    const prune = (list: number[]) => {
      while (list.length > 0 && list[0]! <= now - 1000) list.shift();
    };
    prune(l.global);
    const chatKey = call.payload.chat_id === undefined ? undefined : String(call.payload.chat_id);
    const chatList = chatKey === undefined ? undefined : (l.byChat.get(chatKey) ?? []);
    if (chatList) prune(chatList);
    const over = (list: number[] | undefined, max: number | undefined) =>
      list !== undefined && max !== undefined && list.length >= max ? list[0]! : undefined;
    const blockedSince = over(l.global, l.perSecond) ?? over(chatList, l.perChat);
    if (blockedSince !== undefined) {
      const retryAfter = Math.max(1, Math.ceil((blockedSince + 1000 - now) / 1000));
      return TelegramErrors.tooManyRequests(retryAfter);
    }
    l.global.push(now);
    if (chatKey !== undefined && chatList) {
      chatList.push(now);
      l.byChat.set(chatKey, chatList);
    }
    return undefined;
  }

  /** Default behaviour of the Bot API methods. Throws ApiErrorResponse for errors. */
  private async answer(call: RecordedCall, signal: AbortSignal | undefined): Promise<ApiResponse> {
    const { method, payload } = call;
    switch (method) {
      case "getMe":
        return apiOk(this.botInfo);
      case "getUpdates":
        return apiOk(await this.getUpdates(payload, signal));
      case "getWebhookInfo":
        return apiOk({ url: "", has_custom_certificate: false, pending_update_count: this.updates.length });
      case "sendMessage":
      case "sendPhoto":
      case "sendDocument":
      case "sendVideo":
      case "sendAnimation":
      case "sendAudio":
      case "sendVoice":
      case "sendVideoNote":
      case "sendSticker":
        return apiOk(this.send(call).message);
      case "sendMediaGroup":
        return apiOk(this.sendMediaGroup(call));
      case "copyMessage":
        return apiOk({ message_id: this.copy(call, payload.message_id).messageId });
      case "copyMessages":
        return apiOk(asArray(payload.message_ids).map((id) => ({ message_id: this.copy(call, id).messageId })));
      case "forwardMessage":
        return apiOk(this.copy(call, payload.message_id, true).message);
      case "editMessageText":
      case "editMessageCaption":
      case "editMessageReplyMarkup":
      case "editMessageMedia":
        return apiOk(this.edit(call));
      case "deleteMessage":
        this.delete(payload.chat_id, payload.message_id, true);
        return apiOk(true);
      case "deleteMessages":
        for (const id of asArray(payload.message_ids)) this.delete(payload.chat_id, id, false);
        return apiOk(true);
      case "setMyCommands":
        this.commands.set(commandScopeKey(payload), asArray(payload.commands));
        this.emit({ type: "commands" });
        return apiOk(true);
      case "answerCallbackQuery": {
        const text = typeof payload.text === "string" ? payload.text : undefined;
        // Telegram: 0-200 characters, shown as a toast or (show_alert) a dialog.
        if (this.strict && text !== undefined && text.length > 200) throw badRequest("MESSAGE_TOO_LONG");
        this.emit({
          type: "callbackAnswer",
          callbackQueryId: String(payload.callback_query_id ?? ""),
          ...(text ? { text } : {}),
          showAlert: payload.show_alert === true,
        });
        return apiOk(true);
      }
      case "deleteMyCommands":
        this.commands.delete(commandScopeKey(payload));
        return apiOk(true);
      case "getMyCommands":
        return apiOk(this.commands.get(commandScopeKey(payload)) ?? []);
      case "getChat": {
        const chat = this.chatState(requireChatId(payload)).chat;
        return apiOk({ ...chat, accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: {} });
      }
      case "getFile": {
        const fileId = String(payload.file_id);
        const f = this.storedFiles.get(fileId);
        if (!f) throw badRequest("invalid file_id");
        return apiOk({ file_id: fileId, file_unique_id: uniqueIdOf(fileId), file_size: f.size, file_path: f.path });
      }
      default:
        // answerCallbackQuery, sendChatAction, setChatMenuButton, setWebhook, ... and any
        // method the fake does not model.
        if (method.startsWith("send") && method !== "sendChatAction") return apiOk(this.send(call).message);
        return apiOk(true);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Method implementations
  // ------------------------------------------------------------------------------------------

  private chatState(chatId: number | string): ChatState {
    const key = String(chatId);
    let state = this.chats.get(key);
    if (!state) {
      state = { chat: defaultChat(chatId), lastMessageId: 0, messages: new Map() };
      this.chats.set(key, state);
    }
    return state;
  }

  private botAsUser() {
    const { id, is_bot, first_name, username } = this.botInfo;
    return { id, is_bot, first_name, username };
  }

  /** Validates text/caption per Telegram rules; returns the visible text. */
  private checkText(raw: unknown, parseMode: unknown, kind: "text" | "caption"): string | undefined {
    if (raw === undefined) {
      if (kind === "text") throw badRequest("message text is empty");
      return undefined;
    }
    const text = String(raw);
    const parsed = parseFormatted(text, parseMode);
    if (!parsed.ok) {
      if (this.strict) throw new ApiErrorResponse(apiError(400, parsed.description));
      return text;
    }
    if (this.strict) {
      if (kind === "text" && parsed.text.trim() === "") throw badRequest("message text is empty");
      if (kind === "text" && parsed.text.length > 4096) throw badRequest("message is too long");
      if (kind === "caption" && parsed.text.length > 1024) throw badRequest("message caption is too long");
    }
    return parsed.text;
  }

  /** Checks an inline keyboard like Telegram does and returns it (undefined if none). */
  private checkInlineKeyboard(markup: unknown): InlineKeyboardButton[][] | undefined {
    if (!markup || typeof markup !== "object" || !("inline_keyboard" in markup)) return undefined;
    const rows = (markup as { inline_keyboard: InlineKeyboardButton[][] }).inline_keyboard;
    if (!Array.isArray(rows)) throw badRequest("field \"inline_keyboard\" must be an Array");
    if (this.strict) {
      for (const row of rows) {
        for (const button of row) {
          if (!button.text) throw badRequest("text buttons are unallowed in the inline keyboard");
          if ("callback_data" in button) {
            const len = Buffer.byteLength(button.callback_data, "utf8");
            if (len < 1 || len > 64) throw badRequest("BUTTON_DATA_INVALID");
          } else if (Object.keys(button).length === 1) {
            throw badRequest("text buttons are unallowed in the inline keyboard");
          }
        }
      }
    }
    return rows;
  }

  /** Applies reply keyboard markup (ReplyKeyboardMarkup / ReplyKeyboardRemove) to the chat. */
  private applyReplyKeyboard(state: ChatState, markup: unknown): void {
    if (!markup || typeof markup !== "object") return;
    if ("keyboard" in markup && Array.isArray(markup.keyboard)) {
      state.replyKeyboard = (markup.keyboard as (KeyboardButton | string)[][]).map((row) =>
        row.map((b) => (typeof b === "string" ? b : b.text)),
      );
    } else if ("remove_keyboard" in markup) {
      state.replyKeyboard = undefined;
    }
  }

  /** Registers an uploaded/sent file and returns its file_id. */
  private storeFile(kind: string, bytes: Buffer | undefined, existingId?: string): string {
    if (existingId !== undefined && this.storedFiles.has(existingId)) return existingId;
    const id = existingId ?? `fake-${kind}-${++this.fileCounter}`;
    this.storedFiles.set(id, {
      ...(bytes ? { bytes, size: bytes.length } : {}),
      path: `${kind}s/file_${this.fileCounter}.${kind === "photo" ? "jpg" : "dat"}`,
    });
    return id;
  }

  /** Builds the media part of a Message for a send/edit of `kind` (photo, document, ...). */
  private mediaFields(kind: string, value: unknown, upload: UploadedFile | undefined): { fields: Partial<Message>; file?: UploadedFile } {
    const existingId = typeof value === "string" && !value.startsWith("attach://") ? value : undefined;
    const bytes = upload?.bytes ?? (existingId ? this.storedFiles.get(existingId)?.bytes : undefined);
    const fileId = this.storeFile(kind, bytes, existingId);
    const file = bytes ? { bytes, ...(upload?.filename ? { filename: upload.filename } : {}) } : undefined;
    const base = { file_id: fileId, file_unique_id: uniqueIdOf(fileId), ...(bytes ? { file_size: bytes.length } : {}) };
    let fields: Partial<Message>;
    switch (kind) {
      case "photo": {
        const size = imageSize(bytes) ?? { width: 800, height: 800 };
        fields = { photo: photoSizes(base, size) };
        break;
      }
      case "document":
        fields = {
          document: {
            ...base,
            file_name: upload?.filename ?? "document.dat",
            mime_type: upload?.filename?.endsWith(".pdf") ? "application/pdf" : "application/octet-stream",
          },
        };
        break;
      default:
        fields = { [kind]: { ...base } } as Partial<Message>;
    }
    return { fields, ...(file ? { file } : {}) };
  }

  /** sendMessage, sendPhoto, sendDocument, ... and any other send* method. */
  private send(call: RecordedCall): FakeMessage {
    const { method, payload, files } = call;
    const chatId = requireChatId(payload);
    const isText = method === "sendMessage";
    const kind = isText ? "text" : snakeCase(method.slice("send".length));
    const visible = this.checkText(isText ? payload.text : payload.caption, payload.parse_mode, isText ? "text" : "caption");
    const keyboard = this.checkInlineKeyboard(payload.reply_markup);
    const state = this.chatState(chatId);
    const media = isText || !(kind in payload) ? undefined : this.mediaFields(kind, payload[kind], files[kind]);
    const fm = this.createMessage(state, call, kind, {
      ...(isText ? { text: visible } : {}),
      ...(!isText && visible !== undefined ? { caption: visible } : {}),
      raw: (isText ? payload.text : payload.caption) as string | undefined,
      parseMode: payload.parse_mode as string | undefined,
      inlineKeyboard: keyboard,
      messageFields: media?.fields ?? {},
      file: media?.file,
    });
    this.applyReplyKeyboard(state, payload.reply_markup);
    return fm;
  }

  private sendMediaGroup(call: RecordedCall): Message[] {
    const { payload, files } = call;
    const state = this.chatState(requireChatId(payload));
    const groupId = String(10_000_000 + call.seq);
    return asArray(payload.media).map((item) => {
      const it = (item ?? {}) as Record<string, unknown>;
      const kind = String(it.type ?? "photo");
      const ref = typeof it.media === "string" ? it.media : "";
      const upload = ref.startsWith("attach://") ? files[ref.slice("attach://".length)] : undefined;
      const visible = this.checkText(it.caption, it.parse_mode, "caption");
      const media = this.mediaFields(kind, ref, upload);
      return this.createMessage(state, call, kind, {
        ...(visible !== undefined ? { caption: visible } : {}),
        raw: it.caption as string | undefined,
        parseMode: it.parse_mode as string | undefined,
        inlineKeyboard: undefined,
        messageFields: { ...media.fields, media_group_id: groupId },
        file: media.file,
      }).message;
    });
  }

  /** copyMessage / forwardMessage: duplicates a known message (or a placeholder). */
  private copy(call: RecordedCall, messageId: unknown, forward = false): FakeMessage {
    const { payload } = call;
    const from = payload.from_chat_id as number | string;
    const source = this.message(from, Number(messageId));
    if (!source || source.deleted) throw badRequest("message to copy not found");
    const state = this.chatState(requireChatId(payload));
    const captionOverride = !forward && payload.caption !== undefined;
    const visibleCaption = captionOverride ? this.checkText(payload.caption, payload.parse_mode, "caption") : source.caption;
    const keyboard = forward ? undefined : this.checkInlineKeyboard(payload.reply_markup);
    const { message_id: _id, chat: _chat, date: _date, from: _from, reply_markup: _rm, text: _t, caption: _c, ...content } = source.message;
    const fm = this.createMessage(state, call, source.kind, {
      ...(source.text !== undefined ? { text: source.text } : {}),
      ...(visibleCaption !== undefined ? { caption: visibleCaption } : {}),
      raw: captionOverride ? (payload.caption as string) : source.raw,
      parseMode: captionOverride ? (payload.parse_mode as string | undefined) : source.parseMode,
      inlineKeyboard: keyboard,
      messageFields: {
        ...content,
        ...(forward
          ? { forward_origin: { type: "user", date: source.message.date, sender_user: source.message.from ?? this.botAsUser() } }
          : {}),
      } as Partial<Message>,
      file: source.file,
    });
    if (!forward) this.applyReplyKeyboard(state, payload.reply_markup);
    return fm;
  }

  private createMessage(
    state: ChatState,
    call: RecordedCall,
    kind: string,
    c: {
      text?: string;
      caption?: string;
      raw: string | undefined;
      parseMode: string | undefined;
      inlineKeyboard: InlineKeyboardButton[][] | undefined;
      messageFields: Partial<Message>;
      file: UploadedFile | undefined;
    },
  ): FakeMessage {
    const messageId = ++state.lastMessageId;
    const message = {
      message_id: messageId,
      from: this.botAsUser(),
      chat: state.chat,
      date: Math.floor(this.now() / 1000),
      ...c.messageFields,
      ...(c.text !== undefined ? { text: c.text } : {}),
      ...(c.caption !== undefined ? { caption: c.caption } : {}),
      ...(c.inlineKeyboard ? { reply_markup: { inline_keyboard: c.inlineKeyboard } } : {}),
    } as Message;
    const fm: FakeMessage = {
      messageId,
      chatId: state.chat.id,
      from: "bot",
      kind,
      ...(c.text !== undefined ? { text: c.text } : {}),
      ...(c.caption !== undefined ? { caption: c.caption } : {}),
      ...(c.raw !== undefined ? { raw: c.raw } : {}),
      ...(c.parseMode !== undefined ? { parseMode: c.parseMode } : {}),
      ...(c.inlineKeyboard ? { inlineKeyboard: c.inlineKeyboard } : {}),
      ...(c.file ? { file: c.file } : {}),
      deleted: false,
      edited: false,
      message,
      touchedSeq: call.seq,
    };
    state.messages.set(messageId, fm);
    this.emit({ type: "message", message: { ...fm } }); // a snapshot: fm changes on later edits
    return fm;
  }

  /** editMessageText / Caption / ReplyMarkup / Media. Returns the edited Message (or true inline). */
  private edit(call: RecordedCall): Message | true {
    const { method, payload, files } = call;
    if (payload.inline_message_id !== undefined) return true;
    const chatId = requireChatId(payload);
    const fm = this.message(chatId, Number(payload.message_id));
    if (!fm || fm.deleted) throw badRequest("message to edit not found");
    if (fm.from !== "bot") throw badRequest("message can't be edited");

    // An edit without reply_markup removes the inline keyboard (real Telegram behaviour).
    const keyboard = this.checkInlineKeyboard(payload.reply_markup);
    const next: Partial<FakeMessage> = { inlineKeyboard: keyboard };
    let mediaChange: ReturnType<FakeBotApi["mediaFields"]> | undefined;

    if (method === "editMessageText") {
      if (fm.kind !== "text") throw badRequest("there is no text in the message to edit");
      next.text = this.checkText(payload.text, payload.parse_mode, "text");
      next.raw = String(payload.text);
      next.parseMode = payload.parse_mode as string | undefined;
    } else if (method === "editMessageCaption") {
      if (fm.kind === "text") throw badRequest("there is no caption in the message to edit");
      next.caption = this.checkText(payload.caption, payload.parse_mode, "caption");
      next.raw = payload.caption as string | undefined;
      next.parseMode = payload.parse_mode as string | undefined;
    } else if (method === "editMessageMedia") {
      const media = (payload.media ?? {}) as Record<string, unknown>;
      const kind = String(media.type ?? fm.kind);
      const ref = typeof media.media === "string" ? media.media : "";
      const upload = ref.startsWith("attach://") ? (files.media ?? files[ref.slice("attach://".length)]) : undefined;
      mediaChange = this.mediaFields(kind, ref, upload);
      next.kind = kind;
      next.caption = this.checkText(media.caption, media.parse_mode, "caption");
      next.raw = media.caption as string | undefined;
      next.parseMode = media.parse_mode as string | undefined;
    } else {
      // editMessageReplyMarkup: content unchanged
      next.text = fm.text;
      next.caption = fm.caption;
      next.raw = fm.raw;
      next.parseMode = fm.parseMode;
    }

    const unchanged =
      mediaChange === undefined &&
      next.raw === fm.raw &&
      next.parseMode === fm.parseMode &&
      JSON.stringify(next.inlineKeyboard ?? null) === JSON.stringify(fm.inlineKeyboard ?? null);
    if (unchanged && this.strict) {
      throw badRequest(
        "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    }

    // Apply the edit.
    for (const key of ["text", "caption", "raw", "parseMode", "inlineKeyboard"] as const) {
      if (next[key] === undefined) delete fm[key];
      else (fm as unknown as Record<string, unknown>)[key] = next[key];
    }
    if (next.kind) fm.kind = next.kind;
    if (mediaChange?.file) fm.file = mediaChange.file;
    fm.edited = true;
    fm.touchedSeq = call.seq;

    const old = fm.message as unknown as Record<string, unknown>;
    const { text: _t, caption: _c, reply_markup: _r, edit_date: _e, ...rest } = old;
    if (mediaChange) for (const k of ["photo", "document", "video", "animation", "audio"]) delete rest[k];
    fm.message = {
      ...rest,
      ...(mediaChange?.fields ?? {}),
      ...(fm.text !== undefined ? { text: fm.text } : {}),
      ...(fm.caption !== undefined ? { caption: fm.caption } : {}),
      ...(fm.inlineKeyboard ? { reply_markup: { inline_keyboard: fm.inlineKeyboard } } : {}),
      edit_date: Math.floor(this.now() / 1000),
    } as unknown as Message;
    this.emit({ type: "message", message: { ...fm } }); // a snapshot: fm changes on later edits
    return fm.message;
  }

  private delete(chatId: unknown, messageId: unknown, strict: boolean): void {
    const fm = this.message(chatId as number | string, Number(messageId));
    if (!fm || fm.deleted) {
      if (strict) throw badRequest("message to delete not found");
      return;
    }
    fm.deleted = true;
    fm.touchedSeq = this.seq;
    this.emit({ type: "message", message: { ...fm } }); // a snapshot: fm changes on later edits
  }
}

// =============================================================================================
// Small helpers
// =============================================================================================

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

function sameId(a: unknown, b: unknown): boolean {
  return a !== undefined && b !== undefined && String(a) === String(b);
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function requireChatId(payload: Record<string, unknown>): number | string {
  const id = payload.chat_id;
  if (typeof id === "number" || (typeof id === "string" && id !== "")) return id;
  throw badRequest("chat_id is empty");
}

function snakeCase(s: string): string {
  return s.replace(/^[A-Z]/, (c) => c.toLowerCase()).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function uniqueIdOf(fileId: string): string {
  return `u${Buffer.from(fileId).toString("base64url").slice(-12)}`;
}

function commandScopeKey(payload: Record<string, unknown>): string {
  return JSON.stringify([payload.scope ?? { type: "default" }, payload.language_code ?? ""]);
}

/** Telegram returns several scaled sizes of an uploaded photo, the largest last. */
function photoSizes(base: { file_id: string; file_unique_id: string; file_size?: number }, size: { width: number; height: number }): PhotoSize[] {
  const longest = Math.max(size.width, size.height, 1);
  const limits = [90, 320, 800, 1280].filter((l) => l < longest);
  const sizes = limits.map((l, i) => ({
    file_id: `${base.file_id}-${i}`,
    file_unique_id: `${base.file_unique_id}${i}`,
    width: Math.round((size.width * l) / longest),
    height: Math.round((size.height * l) / longest),
  }));
  const fullWidth = Math.round((size.width * Math.min(longest, 2560)) / longest);
  const fullHeight = Math.round((size.height * Math.min(longest, 2560)) / longest);
  return [...sizes, { ...base, width: fullWidth, height: fullHeight }];
}

/** Which Message field carries the content ("text", "photo", ...). */
function contentKind(message: Message): string {
  for (const k of ["text", "photo", "document", "video", "animation", "audio", "voice", "sticker", "contact", "location"]) {
    if (k in message) return k;
  }
  return "other";
}

/** A plausible Chat for an id never registered: private for positive ids, groups for negative. */
function defaultChat(chatId: number | string): Chat {
  if (typeof chatId === "string" && !/^-?\d+$/.test(chatId)) {
    return { id: -1001000000000, type: "channel", title: chatId.replace(/^@/, ""), username: chatId.replace(/^@/, "") };
  }
  const id = Number(chatId);
  if (id > 0) return { id, type: "private", first_name: `User ${id}` };
  if (id < -1_000_000_000_000) return { id, type: "supergroup", title: `Group ${id}` };
  return { id, type: "group", title: `Group ${id}` };
}
