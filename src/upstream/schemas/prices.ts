/**
 * The `data` of the price lists (prepaid and postpaid products); one broken product is skipped, the rest still sells.
 */
import * as z from "../../tools/zod.js";
import { compact, id, lenientListOf, mapped, money, moneyOrNull, note, optText, text, withAliases } from "./fields.js";
import type { PostpaidProduct, PrepaidProduct } from "../types.js";

export const prepaidProductSchema = mapped(
  z.object({
    code: id,
    name: text,
    category: text,
    type: text,
    provider: text,
    price: money,
    note: note,
    status: text,
    img_url: optText,
  }),
  (d): PrepaidProduct =>
    compact({
      code: d.code,
      name: d.name,
      category: d.category,
      type: d.type,
      provider: d.provider,
      price: d.price,
      note: d.note,
      available: d.status.trim().toLowerCase() === "available",
      imgUrl: d.img_url,
    }),
);

export const postpaidProductSchema = mapped(withAliases(
  { layanan: ["name"] },
  z.object({
    code: id,
    layanan: text,
    type: text,
    category: text,
    // Some lists leave the fee out (or write words): the bill's inquiry then says it.
    admin: moneyOrNull,
    komisi: moneyOrNull,
    note: note,
    status: text,
  }),
),
  (d): PostpaidProduct => ({
    code: d.code,
    name: d.layanan,
    type: d.type,
    category: d.category,
    admin: d.admin,
    commission: d.komisi,
    note: d.note,
    available: d.status.trim().toLowerCase() === "available",
  }),
);

export const prepaidListSchema = lenientListOf(prepaidProductSchema);
export const postpaidListSchema = lenientListOf(postpaidProductSchema);
