/**
 * The `data` of the deposit endpoints: the methods, a deposit (create and status), its cancel, and the instant deposit.
 */
import * as z from "../../tools/zod.js";
import { compact, depositState, id, lenientListOf, mapped, money, moneyDefault0, optMoney, optText, percent, reqText, text, wibTime, withAliases } from "./fields.js";
import type { Deposit, DepositCancel, DepositMethod, InstantDeposit } from "../types.js";

export const depositMethodSchema = mapped(withAliases(
  { metode: ["method"] },
  z.object({
    metode: id,
    type: text,
    name: text,
    min: money,
    max: money,
    fee: money,
    fee_persen: percent,
    status: text,
    img_url: optText,
  }),
),
  (d): DepositMethod =>
    compact({
      method: d.metode,
      type: d.type,
      name: d.name,
      min: d.min,
      max: d.max,
      fee: d.fee,
      feePercent: d.fee_persen,
      active: ["aktif", "active"].includes(d.status.trim().toLowerCase()),
      imgUrl: d.img_url,
    }),
);
export const depositMethodListSchema = lenientListOf(depositMethodSchema, ["metode", "method"]);

export const depositSchema = mapped(withAliases(
  { metode: ["method"] },
  z.object({
    id,
    reff_id: reqText,
    nominal: money,
    tambahan: moneyDefault0,
    // Older answers have neither: the deposit (and its QR) still stands.
    fee: optMoney,
    get_balance: optMoney,
    status: depositState,
    metode: optText,
    created_at: wibTime,
    expired_at: wibTime,
    // type-specific fields returned by create
    qr_string: optText,
    qr_image: optText,
    bank: optText,
    tujuan: optText,
    atas_nama: optText,
    url: optText,
    nomor_va: optText,
  }),
),
  (d): Deposit =>
    compact({
      id: d.id,
      reffId: d.reff_id,
      amount: d.nominal,
      extra: d.tambahan,
      fee: d.fee,
      credited: d.get_balance,
      status: d.status,
      method: d.metode,
      createdAt: d.created_at,
      expiresAt: d.expired_at,
      qrString: d.qr_string,
      qrImage: d.qr_image,
      bank: d.bank,
      accountNumber: d.tujuan,
      accountHolder: d.atas_nama,
      url: d.url,
      vaNumber: d.nomor_va,
    }),
);

export const depositCancelSchema = mapped(
  z.object({ id, status: depositState, created_at: wibTime }),
  (d): DepositCancel => ({ id: d.id, status: d.status, createdAt: d.created_at }),
);

export const instantDepositSchema = mapped(
  z.object({
    id,
    reff_id: text,
    nominal: money,
    penanganan: money,
    total_fee: money,
    total_diterima: money,
    status: depositState,
    created_at: wibTime,
  }),
  (d): InstantDeposit => ({
    id: d.id,
    reffId: d.reff_id,
    amount: d.nominal,
    handlingFee: d.penanganan,
    totalFee: d.total_fee,
    received: d.total_diterima,
    status: d.status,
    createdAt: d.created_at,
  }),
);
