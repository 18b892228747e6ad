/**
 * POST /provider/:token: the provider's callbacks (a transaction, bill payment, transfer or deposit
 * changed). The token names the chat; the signature is md5 of that chat's provider username, which is
 * guessable, so a callback is only a hint: it makes the watcher check that id's status now. Only
 * the status answer changes a record or sends a notice, so a forged, replayed or stale callback costs
 * at most one status call. A signed one (the secret token and the signature) is taken as the
 * provider's own traffic: its check runs at once, a few at a time per key, not under the polling
 * rate, and up to SIGNED_CALLBACKS_PER_MINUTE per chat pass. One without a valid signature costs a
 * lookup and an md5, never a check, and only CALLBACKS_PER_MINUTE of them per chat are even logged:
 * a flood of them neither reaches the provider nor locks the real callbacks out. Answers carry no
 * detail: 404 unknown token, 401 bad signature, 413 too big, 429 too many, 400 not JSON, else 200.
 */
import type { Hono } from "hono";
import { sizeLimit } from "./bodySize.js";
import * as z from "../tools/zod.js";
import type { Clock } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { Store } from "../store/index.js";
import { signatureMatches } from "../domain/providerCallbacks.js";

/** A real callback is well under 2 KB (see the samples); 16 KB leaves room for odd shapes. */
export const CALLBACK_MAX_BYTES = 16 * 1024;
/** Per chat (token), callbacks whose signature is wrong or missing: answered 401 and logged up to this, then 429. */
export const CALLBACKS_PER_MINUTE = 300;
/**
 * Per chat, signed callbacks: the provider sends one per change, so a shop with 1,000 customers
 * paying at once sends ~2,000 in a minute or two (payment, then purchase); 6,000 (100 a second)
 * leaves room and still bounds what someone holding the token and username could make us check.
 */
export const SIGNED_CALLBACKS_PER_MINUTE = 6_000;
/** `callbacksLastAt` is saved at most this often per chat (it is read in minutes; a burst makes no store write per callback). */
const CALLBACKS_LAST_AT_EVERY_MS = 60_000;

/** Events the provider is known to send (upstream notes, "Webhooks"). */
const KNOWN_EVENTS = new Set(["transaksi", "transaksi.prabayar", "transaksi.pascabayar", "transfer", "deposit", "deposit.fast"]);

const id = z.catch(z.optional(z.pipe(z.union([z.string(), z.number()]), z.transform((v) => String(v).trim()))), undefined);
/** Tolerant: the envelope `status` is a word, amounts may be strings or numbers; only the ids matter here. */
const CallbackSchema = z.object({
  event: z.string().check(z.trim(), z.toLowerCase()),
  status: z.optional(z.unknown()),
  data: z.catch(z.optional(z.looseObject({ id, reff_id: id, ref_id: id })), undefined),
});

export interface ProviderCallbackDeps {
  store: Pick<Store, "chatByCallbackToken" | "findHotTx" | "updateChat">;
  clock: Clock;
  logger: Logger;
  /** The watcher checks this id next (StatusWatcher.hurry; `signed`: at once); false when it is not open. */
  hurry(refId: string, signed: boolean): Promise<boolean>;
  /** Counts callbacks by outcome (metrics). */
  onCallback?(outcome: CallbackOutcome): void;
}

export type CallbackOutcome = "matched" | "unmatched" | "unknown-event" | "bad-signature" | "unknown-token" | "rate-limited" | "malformed";

export function mountProviderCallbacks(app: Hono, deps: ProviderCallbackDeps): void {
  const unsigned = new WindowLimiter(CALLBACKS_PER_MINUTE, 60_000);
  const signed = new WindowLimiter(SIGNED_CALLBACKS_PER_MINUTE, 60_000);
  const count = (outcome: CallbackOutcome) => deps.onCallback?.(outcome);
  app.post(
    "/provider/:token",
    sizeLimit({ maxSize: CALLBACK_MAX_BYTES, onError: (c) => c.json({ error: "body too large" }, 413) }),
    async (c) => {
      const chat = await deps.store.chatByCallbackToken(c.req.param("token"));
      if (!chat) {
        count("unknown-token");
        return c.json({ error: "not found" }, 404);
      }
      const chatId = chat.chatId;
      const signature = c.req.header("x-atl-signature");
      const verified = chat.providerUsername !== undefined && signatureMatches(signature, chat.providerUsername);
      if (!(verified ? signed : unsigned).take(chatId, deps.clock.now())) {
        count("rate-limited");
        return c.json({ error: "too many requests" }, 429, { "retry-after": "60" });
      }
      if (!verified) {
        count("bad-signature");
        deps.logger.warn({ chatId, signature: signature === undefined ? "missing" : "wrong" }, "provider callback refused: signature");
        return c.json({ error: "unauthorized" }, 401);
      }
      const text = await c.req.text();
      let parsed;
      try {
        parsed = CallbackSchema.safeParse(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) {
        count("malformed");
        deps.logger.warn({ chatId, bytes: text.length }, "provider callback refused: not a callback body");
        return c.json({ error: "bad request" }, 400);
      }
      const { event, data } = parsed.data;
      if (!KNOWN_EVENTS.has(event)) {
        count("unknown-event");
        deps.logger.info({ chatId, event: event.slice(0, 40) }, "provider callback with an unknown event; ignored");
        return c.json({ ok: true });
      }
      // Within this chat only: another chat's reference under this token matches nothing.
      const refs = [data?.reff_id, data?.ref_id, data?.id].filter((v): v is string => v !== undefined && v !== "");
      let tx;
      for (const r of refs) if ((tx = await deps.store.findHotTx(chatId, r))) break;
      if (!tx) {
        count("unmatched");
        deps.logger.info({ chatId, event }, "provider callback matches no transaction of this chat; ignored");
        return c.json({ ok: true });
      }
      count("matched");
      // Only a callback about one of this chat's own transactions shows its callbacks work (and slows
      // its polling): a signed but empty or stray one changes nothing.
      const now = deps.clock.now();
      if (chat.callbacksLastAt === undefined || now - chat.callbacksLastAt >= CALLBACKS_LAST_AT_EVERY_MS) await deps.store.updateChat(chatId, { callbacksLastAt: now });
      // The check runs in the background; the provider gets its 200 now.
      const checking = await deps.hurry(tx.refId, true);
      deps.logger.debug({ chatId, refId: tx.refId, event, checking }, "provider callback");
      return c.json({ ok: true });
    },
  );
}

/** At most `max` per key in a fixed window; forgets idle keys. */
class WindowLimiter {
  private readonly windows = new Map<number, { start: number; n: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  take(key: number, now: number): boolean {
    if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      this.windows.set(key, { start: now, n: 1 });
      return true;
    }
    w.n++;
    return w.n <= this.max;
  }
}
