/**
 * Deposits over H2H (docs/h2h.md "Deposits"): a downline's system tops up its wallet by QRIS. The
 * deposit is made with the owner's key as the same record as the downline's /deposit (the draft of
 * money/deposits.ts, the wallet part {draft, price 0, credit}), through the one money engine, so the
 * watcher and the wallet rules credit it once when paid. Idempotent by the downline's reff_id. Cancel
 * takes the bot's cancel claim; the instant release is refused (it spends the owner's fee).
 */
import { claimCancel, dropCancelClaim } from "../domain/depositClaims.js";
import type { Ledger } from "../domain/ledger.js";
import { DuplicateTxError, type NewTx, type TxRecord } from "../store/index.js";
import { UpstreamRejected } from "../upstream/errors.js";
import { createDeposit, depositDraft, depositWalletPart } from "./deposits.js";
import { h2hRef, withoutRupiah, type H2hResult, type H2hSales, type H2hSalesDeps, type H2hSeller } from "./h2hSales.js";

export interface H2hDepositsDeps extends Pick<H2hSalesDeps, "store" | "money" | "upstream" | "lists" | "logger"> {
  sales: H2hSales;
  ledger: Ledger;
  now: () => number;
}

const refuse = (message: string, code: number) => ({ refused: true as const, message, code });
const found = (tx: Readonly<TxRecord>) => ({ refused: false as const, tx });

export class H2hDeposits {
  constructor(private readonly deps: H2hDepositsDeps) {}

  /** deposit/create: one QRIS deposit per reff_id, with the owner's key, for the downline's wallet. */
  async create(seller: H2hSeller, req: { reffId: string; amount: number; type: string; method: string }): Promise<H2hResult> {
    const { store, money, sales, lists } = this.deps;
    const refId = h2hRef("deposit", seller.chat, req.reffId);
    const earlier = await store.getTx(refId);
    if (earlier) return earlier.status === "draft" ? this.claimAndCreate(earlier) : found(earlier);
    if (req.method.toLowerCase() !== "qris") return refuse("Lewat H2H hanya deposit QRIS (type ewallet, metode qris)", 422);
    const methods = await sales.read(seller, (key) => lists.depositMethods(key));
    if ("refused" in methods) return methods;
    const method = methods.find((m) => m.method.toLowerCase() === "qris" && m.active);
    if (!method) return refuse("Metode deposit sedang tidak tersedia", 422);
    if (req.amount < method.min || req.amount > method.max) return refuse(`Nominal deposit minimal ${method.min} dan maksimal ${method.max}`, 422);
    const fields = depositDraft(method, req.amount);
    const draft: NewTx & { status: "draft" } = {
      refId, chatId: seller.owner, by: seller.chat, kind: "deposit", status: "draft", ...fields,
      wallet: depositWalletPart(seller.chat, { kind: "deposit", detail: fields.detail }),
      clientRef: req.reffId,
    };
    try {
      await money.reserve(draft, false);
    } catch (err) {
      if (!(err instanceof DuplicateTxError)) throw err;
    }
    return this.claimAndCreate((await store.getTx(refId))!);
  }

  /** The downline's deposit by our id or its reff_id. */
  async find(seller: H2hSeller, id: string): Promise<Readonly<TxRecord> | undefined> {
    const mine = (tx: Readonly<TxRecord> | undefined) => (tx?.kind === "deposit" && tx.chatId === seller.owner && tx.wallet?.chat === seller.chat && tx.clientRef !== undefined ? tx : undefined);
    return mine(await this.deps.store.getTx(id)) ?? mine(await this.deps.store.getTx(h2hRef("deposit", seller.chat, id)));
  }

  /** deposit/cancel: a pending one cancelled at the provider with the owner's key (the bot's cancel claim: one call of many). */
  async cancel(seller: H2hSeller, id: string): Promise<H2hResult> {
    const { ledger, upstream, store } = this.deps;
    const tx = await this.find(seller, id);
    if (!tx) return refuse("Deposit tidak ditemukan", 404);
    if (tx.status === "cancel") return found(tx);
    const key = await store.getApiKey(seller.owner);
    if (!key || !tx.upstreamId) return refuse("Deposit tidak dapat dibatalkan", 422);
    const claim = await claimCancel(ledger, this.deps.now(), tx.refId);
    if (claim === "taken") return found((await store.getTx(tx.refId)) ?? tx);
    if (claim === undefined) return refuse("Deposit tidak dapat dibatalkan", 422);
    try {
      const r = await upstream.cancelDeposit(key, tx.upstreamId);
      // Compare-and-set: a payment the watcher recorded meanwhile is never overwritten.
      if (r.status === "cancel") await ledger.transition(tx.refId, ["pending"], { status: "cancel" });
      await ledger.flush();
    } catch (err) {
      if (!(err instanceof UpstreamRejected)) throw err;
      return refuse("Deposit tidak dapat dibatalkan", 422);
    } finally {
      await dropCancelClaim(ledger, claim);
    }
    const now = (await store.getTx(tx.refId))!;
    return now.status === "cancel" ? found(now) : refuse("Deposit tidak dapat dibatalkan", 422);
  }

  private async claimAndCreate(draft: Readonly<TxRecord>): Promise<H2hResult> {
    const { money, store, upstream, logger } = this.deps;
    const key = await store.getApiKey(draft.chatId);
    if (!key) return refuse("Upline belum terhubung ke penyedia", 503);
    const claim = await money.claim(draft.refId);
    if (!claim.claimed) return claim.reason === "taken" ? found(claim.current ?? draft) : refuse("Gagal menyimpan, coba lagi", 503);
    const outcome = await money.send(claim.tx, (tx) => createDeposit(upstream, key, tx));
    if (outcome.kind === "rejected") {
      logger.info({ refId: draft.refId, chat: draft.wallet?.chat }, "h2h deposit refused by the provider");
      return refuse(withoutRupiah(outcome.error.providerMessage) || "Deposit gagal", outcome.error.providerCode ?? 201);
    }
    return found(outcome.tx);
  }
}
