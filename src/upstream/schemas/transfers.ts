/**
 * The `data` of the bank transfer endpoints: the bank list, the account check and the transfer with its status lookup.
 */
import * as z from "../../tools/zod.js";
import { accountState, compact, id, lenientListOf, looseObject, mapped, money, optText, reqText, text, txState, wibTime, withAliases } from "./fields.js";
import type { AccountCheck, Bank, Transfer } from "../types.js";

export const bankSchema = mapped(
  z.object({ id, bank_code: id, bank_name: text, type: text }),
  (d): Bank => ({ id: d.id, code: d.bank_code, name: d.bank_name, type: d.type }),
);
export const bankListSchema = lenientListOf(bankSchema, ["bank_code"]);

export const accountCheckSchema = mapped(withAliases(
  { kode_bank: ["bank_code"], nomor_akun: ["account_number"] },
  z.object({ kode_bank: text, nomor_akun: text, nama_pemilik: text, status: accountState }),
),
  (d): AccountCheck => ({
    bankCode: d.kode_bank,
    accountNumber: d.nomor_akun,
    holderName: d.nama_pemilik,
    status: d.status,
  }),
);

export const transferSchema = mapped(withAliases(
  { reff_id: ["ref_id"], status: ["status_transaksi"] },
  z.object({
    id,
    reff_id: reqText,
    nama: text,
    nomor_tujuan: text,
    nominal: money,
    fee: money,
    total: money,
    status: txState,
    bank_code: optText,
    detail: looseObject({ email: optText, phone: optText, note: optText }),
    created_at: wibTime,
  }),
),
  (d): Transfer =>
    compact({
      id: d.id,
      reffId: d.reff_id,
      holderName: d.nama,
      accountNumber: d.nomor_tujuan,
      amount: d.nominal,
      fee: d.fee,
      total: d.total,
      status: d.status,
      bankCode: d.bank_code,
      email: d.detail?.email,
      phone: d.detail?.phone,
      note: d.detail?.note,
      createdAt: d.created_at,
    }),
);
