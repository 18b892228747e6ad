/**
 * A downline's payouts after the request (docs/wallets.md "Money out"): what the downline hears of each
 * ending, with its wallet, and the requests the owner left unconfirmed. The money itself moves in the
 * store and the wallets service (a failure or a cancel releases the hold in its own write; a success is
 * posted as one `payout` entry); this job only tells (a request made over H2H: also its system, by
 * callback), and cancels what expired.
 */
import type { Api } from "grammy";
import type { Ledger } from "../domain/ledger.js";
import { isPayout, payoutExpired } from "../domain/payouts.js";
import type { Logger } from "../logging/logger.js";
import type { Wallets } from "../money/wallets.js";
import { madeOverH2h, queueH2hCallback } from "./h2hCallbacks/outbox.js";
import { html, rupiah } from "../render/format.js";
import { DEFAULT_LANG, type Translate } from "../render/i18n.js";
import { detailOf, type Store, type TxRecord } from "../store/index.js";
import { deliver } from "../telegram/delivery.js";
import type { Pacer } from "../telegram/pacer.js";
import type { Clock } from "../tools/clock.js";

export interface PayoutDeps {
  store: Store;
  ledger: Ledger;
  wallets: Wallets;
  api: Api;
  pacer?: Pacer | undefined;
  translate: Translate;
  clock: Clock;
  logger: Logger;
  /** An H2H callback was queued (docs/h2h.md "Callbacks"): the sender looks now. */
  onH2hQueued?: () => void;
  /** Sends the owner a payout request's message with its buttons (the bot's); true once Telegram took it. */
  offer?: (tx: Readonly<TxRecord>) => Promise<boolean>;
}

/** A request whose message did not reach the owner is sent again by the sweep after this long. */
export const OFFER_AGAIN_MS = 60_000;

/** How a payout ended, as its downline is told. */
export type PayoutEnd = "success" | "failed" | "declined" | "expired";

export class Payouts {
  /** Notices in flight (started by events, not awaited by their emitter). */
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: PayoutDeps) {}

  /** Resolves once every notice started before it has finished (tests, a clean stop). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** A saved outcome (a create's answer, the watcher's change): a payout's success or failure is told once. */
  changed(tx: Readonly<TxRecord>): void {
    if (!isPayout(tx) || (tx.status !== "success" && tx.status !== "failed")) return;
    const run = this.tellOutcome(tx.refId).catch((err: unknown) => this.deps.logger.warn({ err, refId: tx.refId }, "payout outcome not told"));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** The owner declined: its downline is told the money is back (the cancel released it). */
  async declined(tx: Readonly<TxRecord>): Promise<void> {
    await this.queueCallback(tx);
    await this.tell(tx, "declined");
  }

  /** Cancels a payout draft left unconfirmed too long; true when this call cancelled it (and told). */
  async expire(tx: Readonly<TxRecord>): Promise<boolean> {
    if (!payoutExpired(tx, this.deps.clock.now())) return false;
    const cancelled = await this.deps.ledger.cancelDraft(tx.refId, "payout not confirmed in time");
    if (!cancelled) return false;
    await this.deps.ledger.flushTx(tx.refId);
    await this.queueCallback(cancelled);
    await this.tell(cancelled, "expired");
    return true;
  }

  /**
   * Asks the owner to confirm or decline a payout request, and marks it asked once Telegram took the
   * message: one that did not (the owner had blocked the bot, Telegram was down) is asked again by the
   * sweep (at least once; a repeat carries the same buttons, which act once).
   */
  async offer(tx: Readonly<TxRecord>): Promise<void> {
    if (!this.deps.offer || !(await this.deps.offer(tx))) return;
    const cur = await this.deps.ledger.get(tx.refId);
    if (cur?.status !== "draft" || detailOf(cur, "transfer").payoutOffered) return;
    const marked = await this.deps.store.transitionTx(tx.refId, ["draft"], { detail: { ...cur.detail, payoutOffered: true } }, (c) => c.updatedAt === cur.updatedAt);
    if (marked) await this.deps.store.flushTx(tx.refId);
  }

  /**
   * Every payout draft past its time, and every one whose request never reached the owner (held drafts
   * are few: the store lists what the wallets still owe).
   */
  async expireDue(): Promise<void> {
    const now = this.deps.clock.now();
    for (const tx of await this.deps.store.unsettledTxs()) {
      if (payoutExpired(tx, now)) await this.expire(tx);
      else if (isPayout(tx) && tx.status === "draft" && !detailOf(tx, "transfer").payoutOffered && now - tx.createdAt >= OFFER_AGAIN_MS) await this.offer(tx);
    }
  }

  private async tellOutcome(refId: string): Promise<void> {
    const { store, wallets } = this.deps;
    const tx = await store.getTx(refId);
    if (!tx || !isPayout(tx) || (tx.status !== "success" && tx.status !== "failed")) return;
    const status = tx.status;
    // The payout entry first, so the balance told is the one after it (a repeat posts nothing).
    if (status === "success") await wallets.settle(tx);
    // Before the mark: a stop after it still finds the callback queued (the queue is idempotent).
    await this.queueCallback(tx);
    if (detailOf(tx, "transfer").payoutTold === status) return;
    // Marked before it is sent: of two callers one tells; a stop in between loses the message, never
    // repeats it (the wallet and /mutasi still show what happened).
    const told = (c: Readonly<TxRecord>) => detailOf(c, "transfer").payoutTold === status;
    const marked = await store.transitionTx(refId, [status], { detail: { ...tx.detail, payoutTold: status } }, (c) => !told(c));
    if (!marked) return;
    await store.flushTx(refId);
    await this.tell(marked, status);
  }

  /** A payout request made over H2H: its ending queued for the downline's system (the outbox sends it). */
  private async queueCallback(tx: Readonly<TxRecord>): Promise<void> {
    if (!madeOverH2h(tx)) return;
    if (await queueH2hCallback(this.deps.store, tx, this.deps.clock.now())) this.deps.onH2hQueued?.();
  }

  private async tell(tx: Readonly<TxRecord>, end: PayoutEnd): Promise<void> {
    // Asked by the downline's system: told there by callback, never in its chat (as an H2H sale).
    if (madeOverH2h(tx)) return;
    const { store, wallets, translate, api, pacer, logger } = this.deps;
    const chat = tx.wallet!.chat;
    const lang = (await store.getChat(chat))?.lang ?? DEFAULT_LANG;
    const wallet = await wallets.view(chat);
    const text = translate(lang, `payout-${end}-you`, {
      amount: rupiah(tx.wallet!.price, lang),
      bank: html(tx.title ?? tx.code ?? ""),
      number: html(tx.target ?? ""),
      balance: rupiah(wallet.balance, lang),
      available: rupiah(wallet.available, lang),
    });
    const sent = await deliver(() => api.sendMessage(chat, text), { pacer });
    if (sent.outcome !== "sent") logger.warn({ chatId: chat, refId: tx.refId, outcome: sent.outcome }, "payout notice not delivered");
  }
}
