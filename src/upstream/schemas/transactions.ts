/**
 * The `data` of a prepaid purchase and of its status lookup.
 */
import * as z from "../../tools/zod.js";
import { id, mapped, money, reqText, sn, text, txState, wibTime, withAliases } from "./fields.js";
import type { PrepaidTransaction } from "../types.js";

export const prepaidTransactionSchema = mapped(withAliases(
  { status: ["status_transaksi"], price: ["harga"], target: ["nomor_pelanggan"] },
  z.object({
    id,
    reff_id: reqText,
    layanan: text,
    code: reqText,
    target: text,
    price: money,
    sn,
    status: txState,
    created_at: wibTime,
  }),
),
  (d): PrepaidTransaction => ({
    id: d.id,
    reffId: d.reff_id,
    productName: d.layanan,
    code: d.code,
    target: d.target,
    price: d.price,
    sn: d.sn,
    status: d.status,
    createdAt: d.created_at,
  }),
);
