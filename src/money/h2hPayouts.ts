/**
 * Transfers over H2H (docs/h2h.md "Transfers"): a downline's system asks for money out of its wallet as
 * its /tarik does, a payout request (money/payouts.ts) the owner confirms in Telegram; nothing is sent to
 * the provider by the call. Idempotent by the downline's ref_id: our reference is made from it, so of
 * many calls one saves (and holds, and asks the owner), the others answer that request. Knows no HTTP
 * and no Telegram: the owner's message goes through the port the app hands it.
 */
import type { Ledger } from "../domain/ledger.js";
import { bankTypeOf, MIN_TRANSFER } from "../domain/transferDrafts.js";
import type { Logger } from "../logging/logger.js";
import type { Store, TxRecord } from "../store/index.js";
import type { ListCache } from "../upstream/cache.js";
import type { MoneyEngine } from "./createOnce.js";
import { h2hRef, type H2hResult, type H2hSales, type H2hSeller } from "./h2hSales.js";
import { requestPayout } from "./payouts.js";
import type { Wallets } from "./wallets.js";

export interface H2hPayoutsDeps {
  store: Store;
  ledger: Ledger;
  money: MoneyEngine;
  sales: H2hSales;
  lists: ListCache;
  wallets: Wallets;
  logger: Logger;
  /** Sends the owner the request with its buttons (the bot's, as /tarik's); its own failures it logs. */
  offerPayout: (tx: Readonly<TxRecord>) => Promise<void>;
}

export interface H2hTransferAsk {
  refId: string;
  bankCode: string;
  accountNumber: string;
  holderName: string;
  amount: number;
  note: string;
}

const refuse = (message: string, code: number) => ({ refused: true as const, message, code });
const found = (tx: Readonly<TxRecord>) => ({ refused: false as const, tx });

export class H2hPayouts {
  constructor(private readonly deps: H2hPayoutsDeps) {}

  /** transfer/create: one held payout request per ref_id, pending until the owner confirms it. */
  async create(seller: H2hSeller & { name: string }, ask: H2hTransferAsk): Promise<H2hResult> {
    const { store, ledger, money, sales, lists, wallets, logger } = this.deps;
    const refId = h2hRef("transfer", seller.chat, ask.refId);
    const earlier = await store.getTx(refId);
    if (earlier) return found(earlier);
    if (ask.amount < MIN_TRANSFER) return refuse(`Nominal transfer minimal ${MIN_TRANSFER}`, 422);
    const banks = await sales.read(seller, (key) => lists.banks(key));
    if ("refused" in banks) return banks;
    const bank = banks.find((b) => b.code.toLowerCase() === ask.bankCode.toLowerCase());
    if (!bank) return refuse("Bank tidak ditemukan", 404);
    // The wallet pays the amount only (the provider's fee is the owner's); the hold's write checks again.
    if ((await wallets.view(seller.chat)).available < ask.amount) return refuse("Saldo tidak mencukupi", 402);
    const dest = { bankCode: bank.code, bankName: bank.name, bankType: bankTypeOf(bank.type), accountNumber: ask.accountNumber, holderName: ask.holderName };
    const made = await requestPayout(money, ledger, {
      owner: seller.owner, chat: seller.chat, name: seller.name, dest, amount: ask.amount, note: ask.note, refId, clientRef: ask.refId,
    });
    if (!made.ok) return refuse("Saldo tidak mencukupi", 402);
    // Asked once, by the call that saved it: a repeat of the ref_id does not ring the owner again.
    if (made.fresh) {
      await this.deps.offerPayout(made.tx).catch((err: unknown) => logger.warn({ err, refId, chatId: seller.owner }, "h2h payout request not delivered to the owner"));
    }
    return found(made.tx);
  }

  /** The downline's H2H transfer by our id or its ref_id. */
  async find(seller: H2hSeller, id: string): Promise<Readonly<TxRecord> | undefined> {
    const mine = (tx: Readonly<TxRecord> | undefined) => (tx?.kind === "transfer" && tx.chatId === seller.owner && tx.wallet?.chat === seller.chat && tx.clientRef !== undefined ? tx : undefined);
    return mine(await this.deps.store.getTx(id)) ?? mine(await this.deps.store.getTx(h2hRef("transfer", seller.chat, id)));
  }
}
