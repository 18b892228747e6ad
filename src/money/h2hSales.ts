/**
 * What a downline's own system buys over H2H (docs/h2h.md), apart from HTTP: a prepaid purchase and a
 * bill's inquiry then payment, each a wallet purchase through the one money engine (the record with its
 * wallet part, the claim with the hold, one create with the owner's key). Idempotent by the downline's
 * reff_id: our reference is made from it, so the store's unique reference lets one call of many create
 * the record, and every later call answers that record. Knows no HTTP and no Telegram.
 */
import { createHash } from "node:crypto";
import type { Logger } from "../logging/logger.js";
import { groupKey } from "../domain/groupKey.js";
import { levelPrice, type Network } from "../domain/network.js";
import { chainPrices, priceDownChain, type ChainItem, type PricedDownChain } from "../domain/networkPrices.js";
import { quoteBill, recost } from "../domain/pricing.js";
import { DuplicateTxError, type NewTx, type Store, type TxPatch, type TxRecord, type TxStatus } from "../store/index.js";
import type { ListCache } from "../upstream/cache.js";
import type { UpstreamClient } from "../upstream/client.js";
import { UpstreamRejected } from "../upstream/errors.js";
import type { BillInquiry, PostpaidProduct, PrepaidProduct } from "../upstream/types.js";
import type { MoneyEngine } from "./createOnce.js";
import type { Wallets } from "./wallets.js";

/** The downline a call comes from, as its record says now. */
export interface H2hSeller {
  chat: number;
  owner: number;
  level: number;
}

/** A refusal in the provider's words: nothing was bought. */
export interface H2hRefused {
  readonly refused: true;
  readonly message: string;
  readonly code: number;
}
/** A transaction the call made or found (`fresh`: made by this call). */
export interface H2hTx {
  readonly refused: false;
  readonly tx: Readonly<TxRecord>;
}
export type H2hResult = H2hRefused | H2hTx;

export interface H2hSalesDeps {
  store: Store;
  money: MoneyEngine;
  upstream: UpstreamClient;
  lists: ListCache;
  network: Network;
  wallets: Wallets;
  logger: Logger;
}

const refuse = (message: string, code: number): H2hRefused => ({ refused: true, message, code });
const found = (tx: Readonly<TxRecord>): H2hTx => ({ refused: false, tx });

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const REF_PREFIX = { prepaid: "HP", postpaid: "HB", deposit: "HD", transfer: "HT" } as const;
/** Our reference for a downline's reff_id: "HP" (prepaid), "HB" (bill), "HD" (deposit) or "HT" (transfer) and 20 characters of a hash. */
export function h2hRef(kind: keyof typeof REF_PREFIX, chat: number, reffId: string): string {
  const bytes = createHash("sha256").update(`${kind}\n${chat}\n${reffId}`).digest();
  let out: string = REF_PREFIX[kind];
  for (let i = 0; i < 20; i++) out += ALPHABET[bytes[i]! % ALPHABET.length];
  return out;
}

/** A provider's message with its rupiah figures left out (they are the owner's cost or balance). */
export function withoutRupiah(message: string): string {
  return message.replace(/\s*Rp\.?\s?[\d.,]+/gi, "").trim();
}

/** The provider refused the owner's call: said without the owner's figures; its balance is not the downline's. */
function upstreamRefusal(err: UpstreamRejected): H2hRefused {
  if (/saldo/i.test(err.providerMessage)) return refuse("Saldo upline tidak mencukupi, hubungi upline Anda", 201);
  return refuse(withoutRupiah(err.providerMessage) || "Transaksi Gagal", err.providerCode ?? 201);
}

const UNAVAILABLE = refuse("Layanan sedang gangguan, coba lagi nanti", 503);
const NOT_LINKED = refuse("Upline belum terhubung ke penyedia", 503);
const BILL_STATUS: ReadonlyMap<string, TxStatus> = new Map([
  ["pending", "pending"],
  ["success", "success"],
  ["failed", "failed"],
]);

export class H2hSales {
  constructor(private readonly deps: H2hSalesDeps) {}

  /** The owner's prepaid list at the downline's prices. */
  async prepaidList(seller: H2hSeller): Promise<PrepaidProduct[] | H2hRefused> {
    const list = await this.read(seller, (key) => this.deps.lists.prepaid(key));
    if ("refused" in list) return list;
    // The price its bot's screens show: down its chain (one read of the chain for the whole list).
    const [level, chain] = await Promise.all([this.level(seller), this.deps.network.chain(seller.chat)]);
    return list.map((p) => {
      const item: ChainItem = { kind: "prepaid", code: p.code, categoryKey: groupKey(p.category), cost: p.price };
      return { ...p, price: chain ? chainPrices(chain, item).at(-1)! : levelPrice(level, p.price, p.code, groupKey(p.category)) };
    });
  }

  postpaidList(seller: H2hSeller): Promise<PostpaidProduct[] | H2hRefused> {
    return this.read(seller, (key) => this.deps.lists.postpaid(key));
  }

  /** A read with the owner's key (a list, an account check): a refusal or an outage answered in the provider's words. */
  async read<T>(seller: H2hSeller, call: (ownerKey: string) => Promise<T>): Promise<T | H2hRefused> {
    const key = await this.ownerKey(seller);
    if (key === undefined) return NOT_LINKED;
    try {
      return await call(key);
    } catch (err) {
      if (err instanceof UpstreamRejected) return upstreamRefusal(err);
      return UNAVAILABLE;
    }
  }

  /** The downline's transaction by our id or its own reff_id. */
  async find(seller: H2hSeller, kind: "prepaid" | "postpaid", id: string): Promise<Readonly<TxRecord> | undefined> {
    const mine = (tx: Readonly<TxRecord> | undefined) => (tx && tx.kind === kind && tx.chatId === seller.owner && tx.wallet?.chat === seller.chat && tx.clientRef !== undefined ? tx : undefined);
    const byOurs = mine(await this.deps.store.getTx(id));
    if (byOurs) return byOurs;
    const byTheirs = mine(await this.deps.store.getTx(h2hRef(kind, seller.chat, id)));
    // A bill only inquired is not a transaction yet.
    return byTheirs && !(kind === "postpaid" && byTheirs.status === "draft") ? byTheirs : undefined;
  }

  /** transaksi/create: one purchase per reff_id, at the downline's price, from its wallet, with the owner's key. */
  async buy(seller: H2hSeller, req: { code: string; reffId: string; target: string; limitPrice?: number }): Promise<H2hResult> {
    const { store, money } = this.deps;
    const refId = h2hRef("prepaid", seller.chat, req.reffId);
    const earlier = await store.getTx(refId);
    if (earlier) return earlier.status === "draft" ? this.claimAndCreate(earlier, "prepaid") : found(earlier);
    const list = await this.read(seller, (key) => this.deps.lists.prepaid(key));
    if ("refused" in list) return list;
    const product = list.find((p) => p.code === req.code) ?? list.find((p) => p.code.toLowerCase() === req.code.toLowerCase());
    if (!product) return refuse("Layanan tidak ditemukan", 404);
    if (!product.available) return refuse("Layanan sedang gangguan / stok kosong", 422);
    const cost = product.price;
    const { top, price, commissions } = await this.priced(seller, { kind: "prepaid", code: product.code, categoryKey: groupKey(product.category), cost });
    if (req.limitPrice !== undefined && price > req.limitPrice) return refuse("Harga melebihi limit_price", 422);
    if ((await this.deps.wallets.view(seller.chat)).available < price) return refuse("Saldo tidak mencukupi", 402);
    const draft: NewTx & { status: "draft" } = {
      refId, chatId: seller.owner, by: seller.chat, kind: "prepaid", status: "draft",
      code: product.code, title: product.name, target: req.target, amount: cost,
      detail: { category: product.category, provider: product.provider },
      sale: { price: top, profit: top - cost },
      wallet: walletPart(seller, price, commissions),
      clientRef: req.reffId,
    };
    try {
      // Not durable yet: the claim's durable write carries it.
      await money.reserve(draft, false);
    } catch (err) {
      if (!(err instanceof DuplicateTxError)) throw err;
    }
    // Of calls at once with the same reff_id, one claims; the others answer what it made.
    return this.claimAndCreate((await store.getTx(refId))!, "prepaid");
  }

  /** transaksi/tagihan: the owner's inquiry, saved as a bill draft at the downline's price; the same reff_id answers it again. */
  async inquire(seller: H2hSeller, req: { code: string; reffId: string; customerNo: string }): Promise<H2hResult> {
    const { store, money, upstream } = this.deps;
    const refId = h2hRef("postpaid", seller.chat, req.reffId);
    const earlier = await store.getTx(refId);
    if (earlier) return found(earlier);
    const inquiry = await this.read(seller, (key) => upstream.billInquiry(key, { code: req.code, reffId: refId, customerNo: req.customerNo }));
    if ("refused" in inquiry) return inquiry;
    const { top, price, commissions } = await this.priced(seller, { kind: "bill", total: inquiry.total, cost: inquiry.price });
    const draft: NewTx & { status: "draft" } = {
      refId, chatId: seller.owner, by: seller.chat, kind: "postpaid", status: "draft",
      code: inquiry.code || req.code, title: inquiry.code || req.code, target: req.customerNo, amount: inquiry.total,
      detail: billDetail(inquiry),
      sale: { price: top, profit: top - inquiry.price },
      wallet: walletPart(seller, price, commissions),
      clientRef: req.reffId,
    };
    try {
      await money.reserve(draft, true);
    } catch (err) {
      if (!(err instanceof DuplicateTxError)) throw err;
    }
    return found((await store.getTx(refId))!);
  }

  /** transaksi/tagihan/bayar: the inquired bill of that reff_id, paid once from the wallet with the owner's key. */
  async pay(seller: H2hSeller, req: { code: string; reffId: string; customerNo: string }): Promise<H2hResult> {
    const tx = await this.deps.store.getTx(h2hRef("postpaid", seller.chat, req.reffId));
    if (!tx || tx.wallet?.chat !== seller.chat) return refuse("Reff ID tidak ditemukan, lakukan cek tagihan terlebih dahulu", 404);
    if (tx.target !== req.customerNo || (tx.code ?? "").toUpperCase() !== req.code.toUpperCase()) return refuse("Data pembayaran tidak sesuai dengan cek tagihan", 400);
    if (tx.status !== "draft") return found(tx);
    if ((await this.deps.wallets.view(seller.chat)).available < tx.wallet.price) return refuse("Saldo tidak mencukupi", 402);
    return this.claimAndCreate(tx, "postpaid");
  }

  /** The engine's claim (the hold in the same write) and one create with the owner's key. */
  private async claimAndCreate(draft: Readonly<TxRecord>, kind: "prepaid" | "postpaid"): Promise<H2hResult> {
    const { money, store, logger } = this.deps;
    const key = await store.getApiKey(draft.chatId);
    if (!key) return NOT_LINKED;
    const claim = await money.claim(draft.refId);
    if (!claim.claimed) {
      if (claim.reason === "taken") return found(claim.current ?? draft);
      if (claim.reason === "not-saved") return refuse("Gagal menyimpan, coba lagi", 503);
      // Lost a race for the last rupiah: a purchase's draft ends here; a bill stays payable after a top-up.
      if (kind === "prepaid") await store.transitionTx(draft.refId, ["draft"], { status: "cancel", message: "wallet short" });
      return refuse("Saldo tidak mencukupi", 402);
    }
    const create = kind === "prepaid" ? (tx: Readonly<TxRecord>) => this.createPrepaid(key, tx) : (tx: Readonly<TxRecord>) => this.payBill(key, tx);
    const outcome = await money.send(claim.tx, create);
    if (outcome.kind === "rejected") {
      logger.info({ refId: draft.refId, chat: draft.wallet?.chat }, "h2h sale refused by the provider");
      return upstreamRefusal(outcome.error);
    }
    return found(outcome.tx);
  }

  private async createPrepaid(key: string, tx: Readonly<TxRecord>): Promise<TxPatch> {
    // limit_price is the owner's cost, as for the owner's own sales (docs/wallets.md rule 4).
    const answer = await this.deps.upstream.createTransaction(key, { code: tx.code!, reffId: tx.refId, target: tx.target!, limitPrice: tx.amount });
    return {
      upstreamId: answer.id,
      status: answer.status,
      sn: answer.sn,
      amount: answer.price > 0 ? answer.price : tx.amount,
      ...(answer.price > 0 && answer.price !== tx.amount ? { sale: recost(tx.sale, answer.price) } : {}),
    };
  }

  private async payBill(key: string, tx: Readonly<TxRecord>): Promise<TxPatch> {
    // Same reference as the inquiry: the provider pays exactly the bill it showed.
    const paid = await this.deps.upstream.billPay(key, { code: tx.code ?? "", reffId: tx.refId, customerNo: tx.target ?? "" });
    const status = BILL_STATUS.get(paid.status) ?? "pending";
    return {
      ...(paid.id ? { upstreamId: paid.id } : {}),
      status,
      sn: paid.sn,
      ...(status === "failed" && paid.sn ? { message: paid.sn } : {}),
    };
  }

  /** The downline's price down its chain, as its bot's confirm screen (bot/pricing.ts downlinePrice); its level's when the chain cannot be read. */
  private async priced(seller: H2hSeller, item: ChainItem): Promise<PricedDownChain> {
    const down = await priceDownChain(this.deps.network, seller.chat, item);
    if (down) return down;
    const level = await this.level(seller);
    const top = item.kind === "bill" ? quoteBill(level.rules, item.total, item.cost).price : levelPrice(level, item.cost, item.code, item.categoryKey);
    return { top, price: top, commissions: [] };
  }

  private ownerKey(seller: H2hSeller): Promise<string | undefined> {
    return this.deps.store.getApiKey(seller.owner);
  }

  private async level(seller: H2hSeller) {
    const levels = await this.deps.network.levels(seller.owner);
    return levels[seller.level] ?? levels[0]!;
  }
}

/** The record's wallet part: the price fixed now, and the uplines' commissions its success posts. */
function walletPart(seller: H2hSeller, price: number, commissions: PricedDownChain["commissions"]): NonNullable<NewTx["wallet"]> {
  return { chat: seller.chat, price, state: "draft", level: seller.level, ...(commissions.length > 0 ? { commissions } : {}) };
}

function billDetail(inq: BillInquiry): NonNullable<Extract<NewTx, { kind: "postpaid" }>["detail"]> {
  return {
    customerName: inq.customerName,
    periods: inq.periods,
    adminFee: inq.adminFee,
    cost: inq.price,
    ...(inq.tariff !== undefined ? { tariff: inq.tariff } : {}),
    ...(inq.power !== undefined ? { power: inq.power } : {}),
    ...(inq.participants !== undefined ? { participants: inq.participants } : {}),
    ...(inq.sheets !== undefined ? { sheets: inq.sheets } : {}),
  };
}
