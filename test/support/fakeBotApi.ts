/**
 * The tests' Bot API: the playground's emulator (src/playground/botApi/, one emulator, not two)
 * plus what only tests need: a log of every request and its answer (`calls`, `callsOf`, `sentTo`,
 * `waitFor`), calls tagged by the user action that made them (`runTagged`), and faults
 * (`failNext`, `dropNext`, `setResponder`).
 *
 * ```ts
 * const fake = new FakeBotApi();
 * const bot = new Bot(FAKE_BOT_TOKEN, { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch } });
 * // or a whole process over HTTP:
 * const server = await fake.startServer();   // http://127.0.0.1:<port>
 * fake.pushUpdate({ message: ... });          // delivered through getUpdates long polling
 * await fake.waitFor((c) => c.method === "sendMessage");
 * await server.close();
 * ```
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  BotApiEmulator,
  apiError,
  type ApiFailure,
  type ApiRequest,
  type ApiResponse,
  type EmulatorOptions,
  type LostRequest,
} from "../../src/playground/botApi/index.js";
import { renderFormatted } from "../../src/playground/telegramFormat.js";

export * from "../../src/playground/botApi/index.js";

/** One Bot API request as the fake received it, and its answer. */
export interface RecordedCall extends ApiRequest {
  /** The answer; undefined while a long poll is still waiting. */
  response?: ApiResponse;
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
export type Responder = (method: string, payload: Record<string, unknown>, call: RecordedCall) => ApiResponse | undefined;

export type FakeBotApiOptions = EmulatorOptions;

interface Fault {
  method: string;
  remaining: number;
  chatId?: number | string;
}

/** Methods that put or change content in a chat (used by `sentTo`). */
export function isChatContentMethod(method: string): boolean {
  return (
    (method.startsWith("send") && method !== "sendChatAction") ||
    method.startsWith("editMessage") ||
    method.startsWith("copyMessage") ||
    method.startsWith("forwardMessage")
  );
}

/**
 * The tags of every fake, in one AsyncLocalStorage for the process: an enabled AsyncLocalStorage is never
 * dropped, and each one is copied into every promise made after it. One per fake made a vitest worker that
 * had built a few hundred test worlds spend over half its time there (the fuzz's updates ~20 ms, not 1.5).
 */
const tags = new AsyncLocalStorage<ReadonlyMap<FakeBotApi, unknown>>();

export class FakeBotApi extends BotApiEmulator {
  /** Every request received, oldest first (cleared by `clear()`). */
  readonly calls: RecordedCall[] = [];

  private seqAfterLast = 0;
  private faults: (Fault & { spec: FaultSpec })[] = [];
  private drops: (Fault & LostRequest)[] = [];
  private responder: Responder | undefined;
  private holds: { method: string; gate: Promise<void> }[] = [];

  constructor(options: FakeBotApiOptions = {}) {
    super(options);
  }

  protected override lostInTransit(method: string, payload: Record<string, unknown>): LostRequest | undefined {
    return take(this.drops, method, payload);
  }

  protected override async respond(request: ApiRequest, signal: AbortSignal | undefined): Promise<ApiResponse> {
    const tag = tags.getStore()?.get(this);
    const call: RecordedCall = Object.assign(request, tag !== undefined ? { tag } : {});
    this.seqAfterLast = call.seq + 1;
    this.calls.push(call);
    const held = this.holds.findIndex((h) => h.method === call.method);
    if (held >= 0) await this.holds.splice(held, 1)[0]!.gate;
    const response = this.takeFault(call) ?? this.responder?.(call.method, call.payload, call) ?? (await super.respond(call, signal));
    call.response = response;
    return response;
  }

  /**
   * Runs `fn` so that every API call made inside it (across awaits) is recorded with
   * `call.tag === tag`. chat.ts wraps `bot.handleUpdate` in it to know which calls an update made.
   */
  runTagged<T>(tag: unknown, fn: () => T): T {
    return tags.run(new Map(tags.getStore()).set(this, tag), fn);
  }

  /** The `seq` the next recorded call will get (a cursor for "calls since now"). */
  get nextSeq(): number {
    return this.seqAfterLast;
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
    return this.calls.filter((c) => isChatContentMethod(c.method) && c.response?.ok === true && sameId(c.payload.chat_id, chatId));
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
  override reset(): void {
    super.reset();
    this.clear();
    this.faults = [];
    this.drops = [];
    this.responder = undefined;
    this.holds = [];
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
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Makes the next `times` (default 1) calls of `method` ("*" = any method except getUpdates),
   * optionally only for `chatId`, fail with `fault` (a FaultSpec or e.g. `TelegramErrors.blocked()`).
   * Answered like Telegram: HTTP status = error_code, body `{ ok: false, error_code, description,
   * parameters: { retry_after } }`.
   */
  failNext(method: string, fault: FaultSpec | ApiFailure, opts: FailOptions = {}): void {
    const spec: FaultSpec =
      "ok" in fault
        ? { error_code: fault.error_code, description: fault.description, ...(fault.parameters?.retry_after !== undefined ? { retry_after: fault.parameters.retry_after } : {}) }
        : fault;
    this.faults.push({ method, spec, remaining: opts.times ?? 1, ...(opts.chatId !== undefined ? { chatId: opts.chatId } : {}) });
  }

  /**
   * Network fault: the next `times` (default 1) calls of `method` ("*" = any but getUpdates),
   * optionally only for `chatId`, get no answer. In-process, fetch throws `error(url)` (default:
   * shaped like node-fetch's FetchError, the full request URL, token included, in its message);
   * over HTTP the connection is reset. Nothing is recorded: Telegram never saw the request.
   */
  dropNext(method: string, opts: FailOptions & LostRequest = {}): void {
    this.drops.push({
      method,
      remaining: opts.times ?? 1,
      ...(opts.chatId !== undefined ? { chatId: opts.chatId } : {}),
      ...(opts.error ? { error: opts.error } : {}),
    });
  }

  /** The network is back: the drops still queued by `dropNext` are forgotten. */
  endDrops(): void {
    this.drops = [];
  }

  /** The next call of `method` is recorded at once and answered only after `release()`: a slow Telegram. */
  holdNext(method: string): () => void {
    let release!: () => void;
    this.holds.push({ method, gate: new Promise<void>((resolve) => (release = resolve)) });
    return () => release();
  }

  /** Installs (or with undefined removes) a responder for custom behaviour. */
  setResponder(responder: Responder | undefined): void {
    this.responder = responder;
  }

  private takeFault(call: RecordedCall): ApiFailure | undefined {
    const fault = take(this.faults, call.method, call.payload);
    if (!fault) return undefined;
    const { spec } = fault;
    const description = spec.description ?? `Too Many Requests: retry after ${spec.retry_after ?? 1}`;
    return apiError(spec.error_code, description, spec.retry_after);
  }
}

/** Takes one use of the first fault matching the call; "*" matches any method but getUpdates. */
function take<F extends Fault>(faults: F[], method: string, payload: Record<string, unknown>): F | undefined {
  const i = faults.findIndex(
    (f) => (f.method === method || (f.method === "*" && method !== "getUpdates")) && (f.chatId === undefined || sameId(payload.chat_id, f.chatId)),
  );
  if (i < 0) return undefined;
  const fault = faults[i]!;
  if (--fault.remaining <= 0) faults.splice(i, 1);
  return fault;
}

function sameId(a: unknown, b: unknown): boolean {
  return a !== undefined && b !== undefined && String(a) === String(b);
}
