/**
 * The `data` of the postpaid bill endpoints: inquiry (with its periods) and payment, also the payment's status lookup.
 */
import * as z from "../../tools/zod.js";
import { compact, listOf, looseObject, mapped, money, moneyOrNull, optInt, optText, reqText, sn, text, txState, wibTime, withAliases } from "./fields.js";
import type { BillInquiry, BillPayment, BillPeriod } from "../types.js";

const billPeriodSchema = mapped(
  z.object({ periode: text, nilai_tagihan: moneyOrNull, admin: moneyOrNull, denda: moneyOrNull }),
  (d): BillPeriod => ({ period: d.periode, amount: d.nilai_tagihan, admin: d.admin, penalty: d.denda }),
);

const billDetailSchema = looseObject({
  tarif: optText,
  daya: optInt,
  jumlah_peserta: optText,
  lembar_tagihan: optInt,
  detail: z.nullish(listOf(billPeriodSchema)),
});

export const billInquirySchema = mapped(
  z.object({
    reff_id: reqText,
    nomor_pelanggan: text,
    nama_pelanggan: text,
    code: reqText,
    harga: money,
    biaya_admin: money,
    total_tagihan: money,
    detail: billDetailSchema,
  }),
  (d): BillInquiry =>
    compact({
      reffId: d.reff_id,
      customerNo: d.nomor_pelanggan,
      customerName: d.nama_pelanggan,
      code: d.code,
      price: d.harga,
      adminFee: d.biaya_admin,
      total: d.total_tagihan,
      tariff: d.detail?.tarif,
      power: d.detail?.daya,
      participants: d.detail?.jumlah_peserta,
      sheets: d.detail?.lembar_tagihan,
      periods: d.detail?.detail ?? [],
    }),
);

/**
 * Bill payment (2.3). Also used for the postpaid status lookup, whose shape is undocumented: it
 * accepts the prepaid transaction spelling too (`price`, `target`, `layanan`).
 */
export const billPaymentSchema = mapped(withAliases(
  { harga: ["price"], nomor_pelanggan: ["target", "customer_no"], status: ["status_transaksi"] },
  z.object({
    id: optText,
    reff_id: reqText,
    nomor_pelanggan: text,
    nama_pelanggan: text,
    code: reqText,
    harga: money,
    sn,
    status: txState,
    created_at: wibTime,
    layanan: optText,
  }),
),
  (d): BillPayment =>
    compact({
      id: d.id,
      reffId: d.reff_id,
      customerNo: d.nomor_pelanggan,
      customerName: d.nama_pelanggan,
      code: d.code,
      price: d.harga,
      sn: d.sn,
      status: d.status,
      createdAt: d.created_at,
      productName: d.layanan,
    }),
);
