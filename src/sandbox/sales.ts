/**
 * Money going out: prepaid purchases, postpaid bill payments and transfers. Each is debited at
 * creation, stays `pending` for settleMs, then resolves to its predetermined outcome (rules.ts);
 * a failure refunds exactly what was debited, once.
 *
 * About 400 lines: the three kinds share debit, settle and refund, which must stay one code path
 * so a refund is exactly the debit; snapshot/restore (the state file) need the private indexes.
 */
import { rupiah, type PostpaidProductDef, type PrepaidProductDef } from "./catalog.js";
import { parseAmount, reffKey, Refusal, type Account, type Core } from "./state.js";
import { bankList, TRANSFER_FEE, type BankDef } from "./payments.js";
import {
  accountRule,
  billPaymentFails,
  lookupBill,
  maskName,
  nameFor,
  prepaidFails,
  prepaidSucceedsAtOnce,
  transferFails,
  type AccountStatus,
  type BillDef,
} from "./rules.js";

import type { TxState } from "../upstream/types.js";

export type { TxState };

interface Settling {
  id: string;
  key: string;
  reffId: string;
  createdAt: number;
  dueAt: number;
  outcome: "success" | "failed";
  status: TxState;
  sn: string | null;
  /** The sn revealed when the record settles (a token/serial, or a failure remark). */
  finalSn: string | null;
  /** What was debited, refunded on failure. */
  debited: number;
}

export interface PrepaidTx extends Settling {
  kind: "prabayar";
  code: string;
  layanan: string;
  target: string;
  price: number;
}

export interface BillPaymentTx extends Settling {
  kind: "pascabayar";
  code: string;
  customerNo: string;
  name: string;
  harga: number;
}

export interface TransferTx extends Settling {
  kind: "transfer";
  bankCode: string;
  nama: string;
  nomorTujuan: string;
  nominal: number;
  fee: number;
  total: number;
  email: string;
  phone: string;
  note: string;
}

export interface Inquiry {
  kind: "inquiry";
  key: string;
  reffId: string;
  code: string;
  customerNo: string;
  bill: BillDef;
  createdAt: number;
  paymentId?: string;
}

/** What a state file keeps of the sales: the records, and the catalogue's changes. */
export interface SalesState {
  products: Pick<PrepaidProductDef, "code" | "name" | "note" | "price" | "status">[];
  billers: Pick<PostpaidProductDef, "code" | "status">[];
  sales: (PrepaidTx | BillPaymentTx | TransferTx)[];
  inquiries: [string, Inquiry][];
  paidBills: string[];
  accountOverrides: [string, { status: AccountStatus; holder: string }][];
}

/** The provider's answer to a create on a route that is down while the list still shows it available. */
export const PREPAID_DISTURBED = "Produk sedang gangguan, silakan coba beberapa saat lagi";
const PREPAID_FAILED = "Transaksi gagal, nomor tujuan tidak aktif. Saldo dikembalikan";
const BILL_FAILED = "Pembayaran gagal dari biller. Saldo dikembalikan";

function failureRemark(tx: PrepaidTx | BillPaymentTx | TransferTx): string | null {
  return tx.kind === "prabayar" ? PREPAID_FAILED : tx.kind === "pascabayar" ? BILL_FAILED : null;
}

const TRANSFER_MIN = 10_000;
const TRANSFER_MAX = 25_000_000;

export class Sales {
  readonly products: Map<string, PrepaidProductDef>;
  readonly billers: Map<string, PostpaidProductDef>;
  readonly banks: Map<string, BankDef>;
  readonly prepaid = new Map<string, PrepaidTx>();
  readonly payments = new Map<string, BillPaymentTx>();
  readonly transfers = new Map<string, TransferTx>();
  readonly inquiries = new Map<string, Inquiry>();
  private readonly prepaidByReff = new Map<string, PrepaidTx>();
  private readonly transfersByReff = new Map<string, TransferTx>();
  /** Bills paid (or being paid) through the sandbox, by code + customer number. */
  private readonly paidBills = new Set<string>();
  readonly accountOverrides = new Map<string, { status: AccountStatus; holder: string }>();
  /** Listed as available, yet a create is refused as out of order (the provider's route is down). */
  readonly disturbed = new Set<string>();

  constructor(
    private readonly core: Core,
    private readonly settleMs: number,
    products: Map<string, PrepaidProductDef>,
    billers: Map<string, PostpaidProductDef>,
  ) {
    this.products = products;
    this.billers = billers;
    this.banks = new Map(bankList().map((b) => [b.bank_code, b]));
  }

  /** Resolves a pending record whose time has come (idempotent: refunds at most once). */
  private settle(tx: PrepaidTx | BillPaymentTx | TransferTx): void {
    if (tx.status !== "pending" || this.core.now() < tx.dueAt) return;
    tx.status = tx.outcome;
    tx.sn = tx.finalSn;
    if (tx.outcome === "failed") {
      this.core.credit(tx.key, tx.debited);
      if (tx.kind === "pascabayar") this.paidBills.delete(`${tx.code}\n${tx.customerNo}`);
    }
    this.core.changed(tx);
  }

  /**
   * Test control: resolves a pending sale now with `outcome` instead of its rule's outcome at
   * settleMs (a success gets a serial/token, a failure the usual remark and its refund).
   * False when the record is already final.
   */
  settleNow(idOrReff: string, outcome: "success" | "failed"): boolean {
    const tx = this.find(idOrReff);
    if (!tx || tx.kind === "inquiry") throw new Error(`sandbox: no prepaid, bill payment or transfer ${idOrReff}`);
    if (tx.status !== "pending") return false;
    if (tx.outcome !== outcome) {
      tx.outcome = outcome;
      tx.finalSn = outcome === "failed" ? failureRemark(tx) : this.serial(tx);
    }
    tx.dueAt = this.core.now();
    this.settle(tx);
    return true;
  }

  /** What a successful sale reveals as sn: a PLN token, a serial, or nothing (transfers). */
  private serial(tx: PrepaidTx | BillPaymentTx | TransferTx): string | null {
    const rng = this.core.rng;
    if (tx.kind === "transfer") return null;
    if (tx.kind === "pascabayar") return rng.text(24, "0123456789ABCDEF");
    return this.product(tx.code)?.category === "PLN" ? (rng.digits(20).match(/\d{4}/g) ?? []).join("-") : rng.digits(20);
  }

  private track<T extends PrepaidTx | BillPaymentTx | TransferTx>(tx: T): T {
    this.core.schedule(tx.dueAt, () => this.settle(tx));
    return tx;
  }

  /**
   * Reads a record of this account by provider id (or, failing that, by the client's reff_id: the
   * real provider's behaviour there is undocumented; the bot uses it after an unknown create
   * outcome), with its status brought up to date.
   */
  private read<T extends PrepaidTx | BillPaymentTx | TransferTx>(
    map: Map<string, T>,
    acc: Account,
    id: string,
    what: string,
    byReff: (reff: string) => T | undefined,
  ): T {
    const own = map.get(id);
    const tx = own && own.key === acc.key ? own : byReff(reffKey(acc.key, id));
    if (!tx || tx.key !== acc.key) throw new Refusal(`${what} tidak ditemukan`, 404);
    this.settle(tx);
    return tx;
  }

  product(code: string): PrepaidProductDef | undefined {
    return this.products.get(code) ?? this.products.get(code.toUpperCase());
  }

  createPrepaid(acc: Account, p: { code: string; reffId: string; target: string; limitPrice?: string }): PrepaidTx {
    if (this.prepaidByReff.has(reffKey(acc.key, p.reffId))) throw new Refusal("Reff ID sudah digunakan", 409);
    const product = this.product(p.code);
    if (!product) throw new Refusal("Layanan tidak ditemukan", 404);
    if (product.status !== "available") throw new Refusal("Layanan sedang gangguan / stok kosong", 422);
    if (this.disturbed.has(product.code)) throw new Refusal(PREPAID_DISTURBED, 422);
    if (!/^[0-9A-Za-z().\- ]{4,40}$/.test(p.target)) throw new Refusal("Nomor tujuan tidak valid", 422);
    if (p.limitPrice !== undefined && p.limitPrice.trim() !== "") {
      const limit = parseAmount(p.limitPrice);
      if (limit === null) throw new Refusal("limit_price tidak valid", 400);
      if (product.price > limit) throw new Refusal(`Harga berubah, harga saat ini Rp ${rupiah(product.price)}`, 422);
    }
    this.core.debit(acc, product.price);
    const now = this.core.now();
    const fails = prepaidFails(p.target);
    const atOnce = !fails && prepaidSucceedsAtOnce(p.target);
    const rng = this.core.rng;
    const token = () => (rng.digits(20).match(/\d{4}/g) ?? []).join("-");
    const tx: PrepaidTx = {
      kind: "prabayar",
      id: this.core.newId(17),
      key: acc.key,
      reffId: p.reffId,
      code: product.code,
      layanan: product.name,
      target: p.target,
      price: product.price,
      createdAt: now,
      dueAt: atOnce ? now : now + this.settleMs,
      outcome: fails ? "failed" : "success",
      status: "pending",
      sn: null,
      finalSn: fails ? PREPAID_FAILED : product.category === "PLN" ? token() : rng.digits(20),
      debited: product.price,
    };
    if (atOnce) {
      tx.status = "success";
      tx.sn = tx.finalSn;
    }
    this.prepaid.set(tx.id, tx);
    this.prepaidByReff.set(reffKey(acc.key, tx.reffId), tx);
    return this.track(tx);
  }

  getPrepaid(acc: Account, id: string): PrepaidTx {
    return this.read(this.prepaid, acc, id, "Transaksi", (k) => this.prepaidByReff.get(k));
  }

  inquire(acc: Account, p: { code: string; reffId: string; customerNo: string }): Inquiry {
    const biller = this.billers.get(p.code) ?? this.billers.get(p.code.toUpperCase());
    if (!biller) throw new Refusal("Layanan tidak ditemukan", 404);
    if (biller.status !== "available") throw new Refusal("Layanan sedang gangguan", 422);
    const k = reffKey(acc.key, p.reffId);
    const prior = this.inquiries.get(k);
    // Re-inquiring the same bill with the same reff_id refreshes it; anything else reuses an id.
    if (prior && (prior.paymentId || prior.code !== biller.code || prior.customerNo !== p.customerNo)) {
      throw new Refusal("Reff ID sudah digunakan", 409);
    }
    if (this.paidBills.has(`${biller.code}\n${p.customerNo}`)) throw new Refusal("Tagihan sudah dibayar", 409);
    const found = lookupBill(biller, p.customerNo, this.core.now());
    if (found.kind === "not_found") throw new Refusal("Nomor pelanggan tidak ditemukan", 404);
    if (found.kind === "paid") throw new Refusal("Tagihan sudah dibayar", 409);
    const inq: Inquiry = { kind: "inquiry", key: acc.key, reffId: p.reffId, code: biller.code, customerNo: p.customerNo, bill: found.bill, createdAt: this.core.now() };
    this.inquiries.set(k, inq);
    return inq;
  }

  payBill(acc: Account, p: { code: string; reffId: string; customerNo: string }): BillPaymentTx {
    const inq = this.inquiries.get(reffKey(acc.key, p.reffId));
    if (!inq) throw new Refusal("Reff ID tidak ditemukan, lakukan cek tagihan terlebih dahulu", 404);
    if (inq.code !== (this.billers.get(p.code) ?? this.billers.get(p.code.toUpperCase()))?.code || inq.customerNo !== p.customerNo) {
      throw new Refusal("Data pembayaran tidak sesuai dengan cek tagihan", 422);
    }
    const billKey = `${inq.code}\n${inq.customerNo}`;
    if (inq.paymentId || this.paidBills.has(billKey)) throw new Refusal("Tagihan sudah dibayar", 409);
    this.core.debit(acc, inq.bill.harga);
    const now = this.core.now();
    const fails = billPaymentFails(inq.customerNo);
    const tx: BillPaymentTx = {
      kind: "pascabayar",
      id: this.core.newId(17),
      key: acc.key,
      reffId: inq.reffId,
      code: inq.code,
      customerNo: inq.customerNo,
      name: inq.bill.name,
      harga: inq.bill.harga,
      createdAt: now,
      dueAt: now + this.settleMs,
      outcome: fails ? "failed" : "success",
      status: "pending",
      sn: null,
      finalSn: fails ? BILL_FAILED : this.core.rng.text(24, "0123456789ABCDEF"),
      debited: inq.bill.harga,
    };
    inq.paymentId = tx.id;
    this.paidBills.add(billKey);
    this.payments.set(tx.id, tx);
    return this.track(tx);
  }

  getPayment(acc: Account, id: string): BillPaymentTx {
    return this.read(this.payments, acc, id, "Transaksi", (k) => {
      const paymentId = this.inquiries.get(k)?.paymentId;
      return paymentId === undefined ? undefined : this.payments.get(paymentId);
    });
  }

  checkAccount(bankCode: string, accountNumber: string): { bank: BankDef; status: AccountStatus; holder: string } {
    const bank = this.banks.get(bankCode.toLowerCase());
    if (!bank) throw new Refusal("Kode bank tidak ditemukan", 404);
    const override = this.accountOverrides.get(`${bank.bank_code}\n${accountNumber}`);
    return { bank, ...(override ?? accountRule(accountNumber)) };
  }

  setAccountStatus(bankCode: string, accountNumber: string, status: AccountStatus, holderName?: string): void {
    const holder = holderName ?? (status === "valid" ? maskName(nameFor(`acct:${accountNumber}`)) : "");
    this.accountOverrides.set(`${bankCode.toLowerCase()}\n${accountNumber}`, { status, holder });
  }

  createTransfer(
    acc: Account,
    p: { reffId: string; bankCode: string; accountNumber: string; holder: string; nominal: string; email: string; phone: string; note: string },
  ): TransferTx {
    if (this.transfersByReff.has(reffKey(acc.key, p.reffId))) throw new Refusal("Ref ID sudah digunakan", 409);
    const nominal = parseAmount(p.nominal);
    if (nominal === null) throw new Refusal("Nominal tidak valid", 400);
    if (nominal < TRANSFER_MIN) throw new Refusal(`Nominal minimal Rp ${rupiah(TRANSFER_MIN)}`, 422);
    if (nominal > TRANSFER_MAX) throw new Refusal(`Nominal maksimal Rp ${rupiah(TRANSFER_MAX)}`, 422);
    const check = this.checkAccount(p.bankCode, p.accountNumber);
    if (check.status === "invalid") throw new Refusal("Nomor rekening tujuan tidak valid", 422);
    const fee = TRANSFER_FEE[check.bank.type];
    const total = nominal + fee;
    this.core.debit(acc, total);
    const now = this.core.now();
    const fails = transferFails(p.accountNumber);
    const tx: TransferTx = {
      kind: "transfer",
      id: this.core.newId(18),
      key: acc.key,
      reffId: p.reffId,
      bankCode: check.bank.bank_code,
      nama: p.holder,
      nomorTujuan: p.accountNumber,
      nominal,
      fee,
      total,
      email: p.email,
      phone: p.phone,
      note: p.note,
      createdAt: now,
      dueAt: now + this.settleMs,
      outcome: fails ? "failed" : "success",
      status: "pending",
      sn: null,
      finalSn: null,
      debited: total,
    };
    this.transfers.set(tx.id, tx);
    this.transfersByReff.set(reffKey(acc.key, tx.reffId), tx);
    return this.track(tx);
  }

  getTransfer(acc: Account, id: string): TransferTx {
    return this.read(this.transfers, acc, id, "Transfer", (k) => this.transfersByReff.get(k));
  }

  snapshot(): SalesState {
    return {
      products: [...this.products.values()].map(({ code, name, note, price, status }) => ({ code, name, note, price, status })),
      billers: [...this.billers.values()].map(({ code, status }) => ({ code, status })),
      sales: [...this.prepaid.values(), ...this.payments.values(), ...this.transfers.values()],
      inquiries: [...this.inquiries.entries()],
      paidBills: [...this.paidBills],
      accountOverrides: [...this.accountOverrides.entries()],
    };
  }

  /** Goes on from a snapshot: records, their indexes, and the pending ones settle at their time. */
  restore(s: SalesState): void {
    for (const p of s.products) {
      const def = this.products.get(p.code);
      if (def) Object.assign(def, p);
    }
    for (const b of s.billers) {
      const def = this.billers.get(b.code);
      if (def) def.status = b.status;
    }
    for (const tx of s.sales) {
      if (tx.kind === "prabayar") {
        this.prepaid.set(tx.id, tx);
        this.prepaidByReff.set(reffKey(tx.key, tx.reffId), tx);
      } else if (tx.kind === "pascabayar") this.payments.set(tx.id, tx);
      else {
        this.transfers.set(tx.id, tx);
        this.transfersByReff.set(reffKey(tx.key, tx.reffId), tx);
      }
      if (tx.status === "pending") this.core.scheduleRestored(tx.dueAt, () => this.settle(tx));
    }
    for (const [k, inq] of s.inquiries) this.inquiries.set(k, inq);
    for (const b of s.paidBills) this.paidBills.add(b);
    for (const [k, o] of s.accountOverrides) this.accountOverrides.set(k, o);
  }

  /** For `transaction(idOrReff)`: any record by provider id or client reference, settled. */
  find(idOrReff: string): PrepaidTx | BillPaymentTx | TransferTx | Inquiry | undefined {
    const byId = this.prepaid.get(idOrReff) ?? this.payments.get(idOrReff) ?? this.transfers.get(idOrReff);
    const hit =
      byId ??
      [...this.prepaid.values(), ...this.payments.values(), ...this.transfers.values()].find((t) => t.reffId === idOrReff);
    if (hit) {
      this.settle(hit);
      return hit;
    }
    return [...this.inquiries.values()].find((i) => i.reffId === idOrReff);
  }
}
