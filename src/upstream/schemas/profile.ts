/**
 * The `data` of the profile endpoint (the provider account: name, balance, status).
 */
import * as z from "../../tools/zod.js";
import { asText, input, mapped, parseMoney, text } from "./fields.js";
import type { Profile } from "../types.js";

export const profileSchema = mapped(
  z.object({ name: text, username: text, email: text, phone: text, balance: input(), status: text }),
  (d): Profile => ({
    name: d.name,
    username: d.username,
    email: d.email,
    phone: d.phone,
    // The vendor's docs send "Saldo Anda" here: keep the text, report no number.
    balance: parseMoney(d.balance) ?? null,
    balanceText: asText(d.balance) ?? "",
    status: d.status,
  }),
);
