/**
 * Our reference ids (`reff_id` / `ref_id`). Made before the create call and saved with the draft,
 * so a retry, a double tap or a repeated update reuses the id and the provider refuses a second
 * create. Short, alphanumeric, readable over the phone: kind prefix + WIB date + random.
 */
import { randomBytes } from "node:crypto";
import type { TxKind } from "../../store/index.js";
import { formatWib } from "../../tools/time.js";

const PREFIX: Record<TxKind, string> = { prepaid: "TP", postpaid: "TG", transfer: "TF", deposit: "DP" };
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function newRefId(kind: TxKind, now: number): string {
  const date = formatWib(now).slice(2, 10).replace(/-/g, ""); // yyMMdd
  const bytes = randomBytes(8);
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % ALPHABET.length];
  return `${PREFIX[kind]}${date}${rand}`;
}
