/**
 * The one money engine: every call that can move money at the provider (a purchase, a bill payment, a
 * transfer, a deposit) is made through it, exactly once per record. It knows no Telegram: its callers
 * (the confirm screen, the shop's pay path and purchases, next the wallets) give it the record, the
 * create and say what to show from the outcome it gives back. docs/money-engine.md draws it:
 *
 *   reserve: the record and its reference saved ("draft")
 *   claim:   draft -> sending, a compare-and-set made durable; when it cannot be saved, back to draft
 *            and nothing is sent (a double tap or a second process finds "sending" and sends nothing)
 *   send:    one create call, then settle over "sending" only: the answer; a refusal -> failed;
 *            a timeout, an outage, an unreadable answer or a bug -> unknown (never sent again; the
 *            watcher looks it up by the same reference). A status check elsewhere that settled the
 *            record first stands.
 */
import type { Logger } from "../logging/logger.js";
import type { Ledger } from "../domain/ledger.js";
import type { TxEvents } from "../domain/events.js";
import type { NewTx, TxPatch, TxRecord } from "../store/index.js";
import { UpstreamError, UpstreamRejected } from "../upstream/errors.js";

export interface MoneyEngineDeps {
  ledger: Ledger;
  events: TxEvents;
  logger: Logger;
}

/** The result of a claim: the record now "sending" (durable), or why nothing may be sent. */
export type Claim =
  | { readonly claimed: true; readonly tx: Readonly<TxRecord> }
  /** Not a draft any more: sent or being sent by another tap or process, or cancelled. */
  | { readonly claimed: false; readonly reason: "taken"; readonly current: Readonly<TxRecord> | undefined }
  /** The "sending" mark could not be made durable: the record is a draft again, nothing was sent. */
  | { readonly claimed: false; readonly reason: "not-saved"; readonly error: unknown }
  /** Paid from a wallet that has less available than its price: still a draft, nothing held or sent. */
  | { readonly claimed: false; readonly reason: "short"; readonly current: Readonly<TxRecord>; readonly available: number };

/** What came of the one create call, as saved. */
export type Outcome =
  /** The provider's answer, saved (pending, processing, success...). */
  | { readonly kind: "answered"; readonly tx: Readonly<TxRecord> }
  /** Refused: nothing moved; saved as failed. */
  | { readonly kind: "rejected"; readonly tx: Readonly<TxRecord>; readonly error: UpstreamRejected }
  /** No readable answer: the money may have moved; saved as unknown, never sent again. */
  | { readonly kind: "unknown"; readonly tx: Readonly<TxRecord>; readonly error: UpstreamError }
  /** A status check elsewhere settled the record first: what it saved stands and is its to tell. */
  | { readonly kind: "elsewhere"; readonly tx: Readonly<TxRecord> }
  /** The provider answered but the store could not take it: the record stays "sending" and the watcher looks it up. */
  | { readonly kind: "unsaved"; readonly tx: Readonly<TxRecord> };

/** The one create call for a record that is "sending": what to record of the provider's answer. */
export type Create = (sending: Readonly<TxRecord>) => Promise<TxPatch>;

export interface SendOptions {
  /**
   * Emit "created" (the watcher follows the record from then) as soon as the outcome is saved. False for a
   * caller that must finish its own step first (the shop's QR goes out before the job may see the deposit);
   * it calls `created` itself.
   */
  emit?: boolean;
}

/** What saving an outcome over "sending" came to. */
type Saved = { readonly kind: "saved"; readonly tx: Readonly<TxRecord> } | Extract<Outcome, { kind: "elsewhere" | "unsaved" }>;

/** Saving an answer is tried this many times at once: a dropped database connection is re-made on the next query. */
const SAVE_TRIES = 3;

export class MoneyEngine {
  constructor(private readonly deps: MoneyEngineDeps) {}

  /**
   * Saves the record as a draft with its reference id. `durable`: made durable now (a confirm screen that
   * waits for a tap); otherwise the claim's durable write carries it, one disk write instead of two.
   */
  async reserve(tx: NewTx & { status: "draft" }, durable: boolean): Promise<Readonly<TxRecord>> {
    return durable ? this.deps.ledger.saveDraft(tx) : this.deps.ledger.draft(tx);
  }

  /**
   * draft -> sending, durable before it resolves; anything else sends nothing. A record paid from a
   * wallet puts its price on hold in the same write (docs/wallets.md): refused as "short" when the
   * wallet has not that much available.
   */
  async claim(refId: string): Promise<Claim> {
    const { ledger, logger } = this.deps;
    // Atomic: of a double tap or two processes, one finds the draft.
    const draft = await ledger.get(refId);
    // A deposit's wallet part holds nothing: it is credited once the deposit is paid.
    const hold = draft?.wallet && draft.kind !== "deposit" ? { wallet: { ...draft.wallet, state: "held" as const } } : {};
    const sending = await ledger.transition(refId, ["draft"], { status: "sending", ...hold }, (current) => current.wallet?.price === draft?.wallet?.price);
    if (!sending) {
      const current = await ledger.get(refId);
      if (current?.status === "draft" && current.wallet && current.kind !== "deposit") {
        const w = await ledger.wallet(current.wallet.chat);
        return { claimed: false, reason: "short", current, available: w.balance - w.held };
      }
      return { claimed: false, reason: "taken", current };
    }
    try {
      await ledger.flushTx(refId);
    } catch (error) {
      // Not on disk, so nothing may be sent. Back to draft in memory: its next write saves the draft,
      // never "sending", and the same claim may be made again later.
      // A payout request's part was held before its claim: it stays held with its draft; a purchase's
      // hold goes back with its record.
      const back = draft?.wallet?.state === "held" ? ("held" as const) : ("draft" as const);
      await ledger.transition(refId, ["sending"], { status: "draft", ...(sending.wallet?.state === "held" ? { wallet: { ...sending.wallet, state: back } } : {}) }).catch(() => undefined);
      logger.error({ refId, err: error }, "could not persist the sending mark; nothing sent");
      return { claimed: false, reason: "not-saved", error };
    }
    return { claimed: true, tx: sending };
  }

  /**
   * The one create call for a claimed record, and its outcome saved over "sending". A bug in `create`
   * (not an answer from the provider) is saved as unknown, since the request may have gone out, and thrown.
   */
  async send(sending: Readonly<TxRecord>, create: Create, options: SendOptions = {}): Promise<Outcome> {
    let outcome: Outcome;
    try {
      const answer = await create(sending);
      const saved = await this.save(sending, { ...answer, status: answer.status ?? "pending" });
      outcome = saved.kind === "saved" ? { kind: "answered", tx: saved.tx } : saved;
    } catch (err) {
      if (!(err instanceof UpstreamError)) {
        const saved = await this.save(sending, { status: "unknown", message: "internal error after sending" });
        if (options.emit ?? true) this.created(saved.tx);
        throw err;
      }
      if (err instanceof UpstreamRejected) {
        const saved = await this.save(sending, { status: "failed", message: err.providerMessage });
        outcome = saved.kind === "saved" ? { kind: "rejected", tx: saved.tx, error: err } : saved;
      } else {
        this.deps.logger.warn({ refId: sending.refId, kind: sending.kind, err }, "create outcome unknown");
        const saved = await this.save(sending, { status: "unknown", message: err.message });
        outcome = saved.kind === "saved" ? { kind: "unknown", tx: saved.tx, error: err } : saved;
      }
    }
    if (options.emit ?? true) this.created(outcome.tx);
    return outcome;
  }

  /** claim, then send: undefined when nothing may be sent (`claim` says why). */
  async claimAndSend(refId: string, create: Create, options?: SendOptions): Promise<{ claim: Claim; outcome?: Outcome }> {
    const claim = await this.claim(refId);
    if (!claim.claimed) return { claim };
    return { claim, outcome: await this.send(claim.tx, create, options) };
  }

  /** Tells the listeners (the watcher, balance alerts, the balance cache) that a create answered. */
  created(tx: Readonly<TxRecord>): void {
    this.deps.events.emit("created", tx);
  }

  /**
   * Writes the outcome over "sending" and makes it durable, trying again at once a few times. A record no
   * longer "sending" was settled elsewhere first; a store that still refuses leaves it "sending".
   */
  private async save(sending: Readonly<TxRecord>, patch: TxPatch): Promise<Saved> {
    const { ledger, logger } = this.deps;
    const { refId } = sending;
    for (let attempt = 1; ; attempt++) {
      try {
        const saved = await ledger.transition(refId, ["sending"], patch);
        if (!saved) return { kind: "elsewhere", tx: (await ledger.get(refId)) ?? sending };
        try {
          await ledger.flushTx(refId);
        } catch (err) {
          // Applied but not durable: back to "sending", so the next try here, or the watcher once the
          // store can save, tells it (left as is, the next try would read it as settled elsewhere).
          await ledger.transition(refId, [saved.status], { status: "sending" }, (c) => c.updatedAt === saved.updatedAt);
          throw err;
        }
        return { kind: "saved", tx: saved };
      } catch (err) {
        if (attempt >= SAVE_TRIES) {
          logger.error({ refId, err }, "could not save the provider's answer to a create call; the watcher will look it up");
          return { kind: "unsaved", tx: sending };
        }
      }
    }
  }
}
