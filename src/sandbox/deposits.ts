/**
 * Money coming in: deposits. pending -> (paid) -> processing -> success for plain QRIS / VA /
 * e-wallet (H+1 settlement, or instant release for a fee); pending -> success for qrisfast and
 * bank transfers; pending -> expired / cancel. The balance is credited only on success.
 */
import { rupiah } from "./catalog.js";
import { parseAmount, reffKey, Refusal, type Account, type Core } from "./state.js";
import { buildQris } from "./qris.js";
import { DEPOSIT_ACCOUNT_HOLDER, depositFee, depositMethods, type DepositMethodDef } from "./payments.js";
import { LATE_QRIS_WINDOW_MS } from "./rules.js";

import type { DepositState } from "../upstream/types.js";

export type { DepositState };

export interface DepositRec {
  kind: "deposit";
  id: string;
  key: string;
  reffId: string;
  method: DepositMethodDef;
  /** Reported nominal: the requested amount plus `tambahan` (bank transfers). */
  nominal: number;
  tambahan: number;
  fee: number;
  getBalance: number;
  status: DepositState;
  createdAt: number;
  expiresAt: number;
  /** Demo mode: when the simulated payer pays, and when H+1 settlement lands. */
  autoPayAt: number | null;
  autoSettleAt: number | null;
  paidAt: number | null;
  released: boolean;
  /** Type-specific create fields (qr_string, bank, nomor_va, url...). */
  extra: Record<string, string>;
}

/** What a state file keeps of the deposits (a method by its code). */
export interface DepositsState {
  deposits: (Omit<DepositRec, "method"> & { method: string })[];
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const WIB = 7 * HOUR;
/** Handling fee of an instant release, in tenths of a percent of the nominal. */
const INSTANT_PERMILLE = 15;

/** 23:59:59 WIB of the day containing `at`. */
function endOfWibDay(at: number): number {
  return Math.floor((at + WIB) / DAY) * DAY + DAY - 1000 - WIB;
}

/** H+1: 08:00 WIB of the next working day (Saturday and Sunday skipped). */
function nextWorkingMorning(at: number): number {
  let day = Math.floor((at + WIB) / DAY) + 1;
  while ([0, 6].includes(new Date(day * DAY).getUTCDay())) day++;
  return day * DAY + 8 * HOUR - WIB;
}

export class Deposits {
  readonly methods: Map<string, DepositMethodDef>;
  readonly byId = new Map<string, DepositRec>();
  private readonly byReff = new Map<string, DepositRec>();
  /** Bank add-on in use, by method + amount: keeps transfers of equal amounts distinguishable. */
  private readonly addOns = new Map<string, DepositRec>();

  constructor(
    private readonly core: Core,
    private readonly autoPayMs: number | null,
  ) {
    this.methods = new Map(depositMethods().map((m) => [m.metode, m]));
  }

  /** Brings a deposit up to date with the clock (idempotent). */
  refresh(d: DepositRec): DepositRec {
    const now = this.core.now();
    if (d.status === "pending") {
      if (d.autoPayAt !== null && d.autoPayAt <= d.expiresAt && now >= d.autoPayAt) this.applyPayment(d, d.autoPayAt);
      else if (now >= d.expiresAt) {
        d.status = "expired";
        this.core.changed(d);
      }
    }
    if (d.status === "processing" && d.autoSettleAt !== null && now >= d.autoSettleAt) this.succeed(d);
    return d;
  }

  private succeed(d: DepositRec): void {
    d.status = "success";
    this.core.credit(d.key, d.getBalance);
    this.core.changed(d);
  }

  private applyPayment(d: DepositRec, at: number): void {
    d.paidAt = at;
    if (d.method.instant) {
      this.succeed(d);
      return;
    }
    d.status = "processing";
    this.core.changed(d);
    if (this.autoPayMs !== null) {
      d.autoSettleAt = nextWorkingMorning(at);
      this.core.schedule(d.autoSettleAt, () => this.refresh(d));
    }
  }

  method(code: string): DepositMethodDef | undefined {
    return this.methods.get(code.toLowerCase());
  }

  create(acc: Account, p: { reffId: string; nominal: string; type: string; metode: string }): DepositRec {
    if (this.byReff.has(reffKey(acc.key, p.reffId))) throw new Refusal("Reff ID sudah digunakan", 409);
    const method = this.method(p.metode);
    if (!method) throw new Refusal("Metode deposit tidak ditemukan", 404);
    if (method.status !== "aktif") throw new Refusal("Metode deposit sedang tidak aktif", 422);
    if (p.type.toLowerCase().replace("-", "") !== method.type) {
      throw new Refusal(`Tipe deposit tidak sesuai, metode ${method.metode} bertipe ${method.type}`, 422);
    }
    const requested = parseAmount(p.nominal);
    if (requested === null) throw new Refusal("Nominal tidak valid", 400);
    if (requested < method.min) throw new Refusal(`Minimal deposit Rp ${rupiah(method.min)}`, 422);
    if (requested > method.max) throw new Refusal(`Maksimal deposit Rp ${rupiah(method.max)}`, 422);

    const core = this.core;
    const now = core.now();
    const id = core.newId(15);
    const tambahan = method.kind === "bank" ? this.pickAddOn(method, requested) : 0;
    const nominal = requested + tambahan;
    const fee = depositFee(method, nominal);
    const expiresAt =
      method.expiry === "1h" ? now + HOUR : method.expiry === "3h" ? now + 3 * HOUR : method.expiry === "24h" ? now + DAY : endOfWibDay(now);
    const extra: Record<string, string> =
      method.kind === "qris"
        ? { qr_string: buildQris({ amount: nominal, reference: id }), qr_image: `${core.baseUrl}/qr/${id}` }
        : method.kind === "bank"
          ? { bank: method.bank ?? "BCA", tujuan: method.prefix ?? "", atas_nama: DEPOSIT_ACCOUNT_HOLDER }
          : method.kind === "va"
            ? { bank: method.bank ?? "BCA", nomor_va: (method.prefix ?? "") + core.rng.digits(16 - (method.prefix ?? "").length) }
            : { url: `${core.baseUrl}/pay/${id}` };
    const d: DepositRec = {
      kind: "deposit",
      id,
      key: acc.key,
      reffId: p.reffId,
      method,
      nominal,
      tambahan,
      fee,
      getBalance: nominal - fee,
      status: "pending",
      createdAt: now,
      expiresAt,
      autoPayAt: this.autoPayMs === null ? null : now + this.autoPayMs,
      autoSettleAt: null,
      paidAt: null,
      released: false,
      extra,
    };
    this.byId.set(id, d);
    this.byReff.set(reffKey(acc.key, d.reffId), d);
    if (method.kind === "bank") this.addOns.set(`${method.metode}\n${nominal}`, d);
    if (d.autoPayAt !== null) core.schedule(d.autoPayAt, () => this.refresh(d));
    return d;
  }

  /** A 100..999 add-on not held by another pending deposit of the same method and total. */
  private pickAddOn(method: DepositMethodDef, requested: number): number {
    for (let attempt = 0; attempt < 50; attempt++) {
      const t = this.core.rng.int(100, 999);
      const holder = this.addOns.get(`${method.metode}\n${requested + t}`);
      if (!holder || this.refresh(holder).status !== "pending") return t;
    }
    return this.core.rng.int(100, 999);
  }

  /** By provider id, or by the client's reff_id (see Sales.read). */
  get(acc: Account, id: string): DepositRec {
    const own = this.byId.get(id);
    const d = own && own.key === acc.key ? own : this.byReff.get(reffKey(acc.key, id));
    if (!d || d.key !== acc.key) throw new Refusal("Deposit tidak ditemukan", 404);
    return this.refresh(d);
  }

  cancel(acc: Account, id: string): DepositRec {
    const d = this.get(acc, id);
    if (d.status !== "pending") throw new Refusal(`Deposit tidak dapat dibatalkan, status ${d.status}`, 409);
    d.status = "cancel";
    this.core.changed(d);
    return d;
  }

  /** action=false previews the handling fee; action=true releases the funds now, once. */
  instant(acc: Account, id: string, release: boolean) {
    const d = this.get(acc, id);
    if (d.released) throw new Refusal("Deposit sudah dicairkan", 409);
    if (d.status !== "processing") throw new Refusal(`Deposit tidak dalam status processing (status ${d.status})`, 409);
    const penanganan = Math.ceil((d.nominal * INSTANT_PERMILLE) / 1000);
    const totalFee = d.fee + penanganan;
    const totalDiterima = d.nominal - totalFee;
    if (release) {
      d.released = true;
      d.fee = totalFee;
      d.getBalance = totalDiterima;
      this.succeed(d);
    }
    return { deposit: d, penanganan, totalFee, totalDiterima };
  }

  /** Test/demo control: the payer pays. A QRIS is still accepted shortly after it expired. */
  pay(id: string): DepositRec {
    const d = this.control(id);
    const late = d.status === "expired" && d.method.kind === "qris" && this.core.now() <= d.expiresAt + LATE_QRIS_WINDOW_MS;
    if (d.status !== "pending" && !late) throw new Error(`sandbox: deposit ${id} cannot be paid (status ${d.status})`);
    this.applyPayment(d, this.core.now());
    return d;
  }

  /** Test control: the H+1 settlement of a processing deposit. */
  settle(id: string): DepositRec {
    const d = this.control(id);
    if (d.status !== "processing") throw new Error(`sandbox: deposit ${id} cannot settle (status ${d.status})`);
    this.succeed(d);
    return d;
  }

  private control(id: string): DepositRec {
    const d = this.byId.get(id) ?? [...this.byId.values()].find((x) => x.reffId === id);
    if (!d) throw new Error(`sandbox: unknown deposit ${id}`);
    return this.refresh(d);
  }

  snapshot(): DepositsState {
    return { deposits: [...this.byId.values()].map((d) => ({ ...d, method: d.method.metode })) };
  }

  /** Goes on from a snapshot: payments and settlements still to come happen at their time. */
  restore(s: DepositsState): void {
    for (const saved of s.deposits) {
      const method = this.methods.get(saved.method);
      if (!method) continue; // a method no longer offered
      const d: DepositRec = { ...saved, method };
      this.byId.set(d.id, d);
      this.byReff.set(reffKey(d.key, d.reffId), d);
      if (method.kind === "bank") this.addOns.set(`${method.metode}\n${d.nominal}`, d);
      if (d.status === "pending" && d.autoPayAt !== null) this.core.scheduleRestored(d.autoPayAt, () => this.refresh(d));
      if (d.status === "processing" && d.autoSettleAt !== null) this.core.scheduleRestored(d.autoSettleAt, () => this.refresh(d));
    }
  }

  find(idOrReff: string): DepositRec | undefined {
    const d = this.byId.get(idOrReff) ?? [...this.byId.values()].find((x) => x.reffId === idOrReff);
    return d && this.refresh(d);
  }
}
