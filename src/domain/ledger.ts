/**
 * A chat's ledger of transactions, as the bot's features and money code use it. Every method is one
 * store call or a fixed sequence of them; the compare-and-set stays visible as `transition`, so money
 * code still says which statuses a step may leave and what it must find unchanged.
 */
import type { NewTx, Store, TxPatch, TxRecord, TxStatus, WalletBalance } from "../store/index.js";

export class Ledger {
  constructor(private readonly store: Store) {}

  /**
   * Saves a new draft, not yet durable: for a caller whose next step is the draft's own compare-and-set
   * made durable before the call (`transition` then `flush`), so one disk write carries both.
   */
  async draft(tx: NewTx): Promise<Readonly<TxRecord>> {
    return this.store.createTx(tx);
  }

  /** Saves a new draft and makes it durable: its reference id exists before any call uses it. */
  async saveDraft(tx: NewTx): Promise<Readonly<TxRecord>> {
    const saved = await this.store.createTx(tx);
    await this.store.flush();
    return saved;
  }

  get(refId: string): Promise<Readonly<TxRecord> | undefined> {
    return this.store.getTx(refId);
  }

  /** Writes `patch` whatever the status is now (message ids, details); `transition` when it must still be as read. */
  update(refId: string, patch: TxPatch): Promise<Readonly<TxRecord>> {
    return this.store.updateTx(refId, patch);
  }

  /** `update`, resolved once durable (flush): a draft whose fields a confirm screen is about to show. */
  async updateDurably(refId: string, patch: TxPatch): Promise<Readonly<TxRecord>> {
    const updated = await this.store.updateTx(refId, patch);
    await this.store.flush();
    return updated;
  }

  /**
   * Compare-and-set: applies `patch` only while the status is one of `from` (and `when` holds on the
   * current record); undefined when another step got there first.
   */
  transition(
    refId: string,
    from: readonly TxStatus[],
    patch: TxPatch,
    when?: (current: Readonly<TxRecord>) => boolean,
  ): Promise<Readonly<TxRecord> | undefined> {
    return when === undefined ? this.store.transitionTx(refId, from, patch) : this.store.transitionTx(refId, from, patch, when);
  }

  /** Cancels a draft (compare-and-set from "draft"); undefined when it was no longer a draft. */
  cancelDraft(refId: string, reason?: string): Promise<Readonly<TxRecord> | undefined> {
    return this.store.transitionTx(refId, ["draft"], reason === undefined ? { status: "cancel" } : { status: "cancel", message: reason });
  }

  /** Resolves once every change made before it is durable: awaited before a provider call it leads to. */
  flush(): Promise<void> {
    return this.store.flush();
  }

  /** Resolves once this transaction's changes so far are durable (the others' may not be yet). */
  flushTx(refId: string): Promise<void> {
    return this.store.flushTx(refId);
  }

  /** A chat's transaction by our reference or the provider's id, however old. */
  find(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return this.store.findTx(chatId, id);
  }

  /** The chat's newest `limit` transactions, newest first. */
  async recent(chatId: number, limit: number): Promise<Readonly<TxRecord>[]> {
    return (await this.store.listTxByChat(chatId, { limit })).items;
  }

  /** A page of the chat's transactions, newest first, and how many there are in all. */
  page(chatId: number, offset: number, limit: number): Promise<{ items: Readonly<TxRecord>[]; total: number }> {
    return this.store.listTxByChat(chatId, { offset, limit });
  }

  /** Every transaction of the chat, newest first. */
  async all(chatId: number): Promise<Readonly<TxRecord>[]> {
    const { total } = await this.store.listTxByChat(chatId, { limit: 0 });
    return (await this.store.listTxByChat(chatId, { limit: total })).items;
  }

  /** The chat's transactions created in `month` ("YYYY-MM", WIB), oldest first. */
  month(chatId: number, month: string): Promise<Readonly<TxRecord>[]> {
    return this.store.txsOfMonth(chatId, month);
  }

  /** The WIB months ("YYYY-MM") in which the chat has transactions, newest first. */
  months(chatId: number): Promise<string[]> {
    return this.store.txMonths(chatId);
  }

  /** A downline's wallet (docs/wallets.md): what a record paid from it may hold. */
  wallet(chat: number): Promise<WalletBalance> {
    return this.store.wallet(chat);
  }

  /** Every chat's transactions whose outcome is still open. */
  open(): Promise<Readonly<TxRecord>[]> {
    return this.store.openTxs();
  }
}
