/**
 * Saved customers as the bot sees them (kinds of target, names as typed; domain/customers.ts keeps the
 * list) and the targets a flow offers as buttons: the chat's saved customers of the kind the prompt asks
 * for, then its last distinct targets of that kind from history. A tap is taken as if typed, so every
 * offer still goes through the step's check.
 */
import { CUSTOMERS_MAX, type SavedCustomers, type SaveResult } from "../domain/savedCustomers.js";
import type { Ledger } from "../domain/ledger.js";
import { detailOf, OPEN_STATUSES, type CustomerKind, type SavedCustomer, type TxRecord } from "../store/index.js";
import type { PrepaidProduct } from "../upstream/types.js";
import { targetKind } from "./targets.js";
import type { Suggestion } from "./flows/steps.js";

export { CUSTOMERS_MAX };
export type { SaveResult };
export const CUSTOMER_NAME_MAX = 32;
/** Saved customers a prompt offers (newest first; /pelanggan finds the rest). */
export const OFFERED_SAVED = 8;
/** Distinct recent targets a prompt offers. */
export const OFFERED_RECENT = 5;
/** How far back history is read for recent targets. */
const RECENT_SCAN = 200;

export const CUSTOMER_ICON: Record<CustomerKind, string> = { phone: "📱", number: "🔢", account: "🏦", id: "🎮" };

/** The kind of target a prepaid product takes, as a customer kind. */
export function customerKindOfProduct(product: Pick<PrepaidProduct, "category" | "provider" | "name" | "note">): CustomerKind {
  const kind = targetKind({ ...product, code: "", type: "", price: 0, available: true });
  if (kind === "phone" || kind === "emoney") return "phone";
  if (kind === "pln") return "number";
  return "id";
}

/** The kind of a transaction's target; undefined for what has no customer target (deposits). */
export function customerKindOfTx(tx: TxRecord): CustomerKind | undefined {
  if (!tx.target) return undefined;
  if (tx.kind === "postpaid") return "number";
  if (tx.kind === "transfer") return "account";
  if (tx.kind !== "prepaid") return undefined;
  const d = detailOf(tx, "prepaid");
  return customerKindOfProduct({ category: d.category ?? "", provider: d.provider ?? "", name: tx.title ?? "", note: "" });
}

/** A successful sale or transfer whose target can be saved. */
export function canSaveCustomer(tx: TxRecord): boolean {
  return tx.status === "success" && customerKindOfTx(tx) !== undefined;
}

/** A name as typed: one line, spaces collapsed, 1..CUSTOMER_NAME_MAX characters. */
export function parseCustomerName(text: string): { ok: true; value: string } | { ok: false; error: string; vars?: Record<string, number> } {
  if (/[\r\n]/.test(text.trim())) return { ok: false, error: "customer-name-one-line" };
  const name = text.replace(/\s+/g, " ").trim();
  if (name.length === 0 || name.length > CUSTOMER_NAME_MAX) return { ok: false, error: "customer-name-length", vars: { max: CUSTOMER_NAME_MAX } };
  return { ok: true, value: name };
}

/** Saves the target of `tx` under `name`, durably; the same target saved before gets the new name. */
export async function saveCustomer(customers: SavedCustomers, chatId: number, tx: TxRecord, name: string, now: number): Promise<SaveResult> {
  const kind = customerKindOfTx(tx);
  if (!kind || !tx.target) return { ok: false, reason: "not-savable" };
  return customers.save(chatId, { kind, target: tx.target, code: tx.code, title: tx.title, source: tx.kind }, name, now);
}

/** Customers whose name, number or product matches every word of `query`, newest first. */
export function searchCustomers(list: readonly SavedCustomer[], query: string): SavedCustomer[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return [...list].reverse().filter((c) => {
    const hay = `${c.name} ${c.target} ${c.title ?? ""} ${c.code ?? ""}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** What a prompt asks for: a kind, and which saved entries and past transactions fit it. */
export interface TargetWanted {
  kind: CustomerKind;
  /** A saved customer that fits (e.g. an account of the chosen bank). */
  fitsSaved?: (c: SavedCustomer) => boolean;
  /** A past transaction whose target fits. */
  fitsTx: (tx: TxRecord) => boolean;
  /** The step's own check: an offer it would refuse is not offered. */
  valid: (target: string) => boolean;
}

/** Where a transaction's target may be offered again: it went out, and was not refused. */
function usedTarget(tx: TxRecord): boolean {
  return tx.status === "success" || OPEN_STATUSES.has(tx.status);
}

/**
 * Whose lists a prompt reads: the ledger's recent records, of them only those the chat `sees` (a
 * downline or cashier, its own sales), and the saved customers of `customers` (a downline's own).
 */
export interface OfferedFrom {
  ledger: number;
  customers: number;
  sees?: (tx: TxRecord) => boolean;
}

/** The chat's saved customers of the wanted kind, then its recent distinct targets of that kind. */
export async function suggestionsFor(
  { savedCustomers, ledger }: { savedCustomers: SavedCustomers; ledger: Ledger },
  from: OfferedFrom,
  wanted: TargetWanted,
): Promise<Suggestion[]> {
  const sees = from.sees ?? (() => true);
  const saved = [...await savedCustomers.list(from.customers)]
    .reverse()
    .filter((c) => c.kind === wanted.kind && (wanted.fitsSaved?.(c) ?? true) && wanted.valid(c.target))
    .slice(0, OFFERED_SAVED);
  const out: Suggestion[] = saved.map((c) => ({ label: `👤 ${c.name} · ${c.target}`, value: c.target }));
  const seen = new Set(saved.map((c) => c.target));
  const recent = await ledger.recent(from.ledger, RECENT_SCAN);
  let n = 0;
  for (const tx of recent) {
    if (n >= OFFERED_RECENT) break;
    if (!tx.target || seen.has(tx.target) || !sees(tx) || !usedTarget(tx) || !wanted.fitsTx(tx) || !wanted.valid(tx.target)) continue;
    seen.add(tx.target);
    out.push({ label: `🕘 ${tx.target}`, value: tx.target });
    n++;
  }
  return out;
}

/** What the top-up flow's target prompt offers for `product`: same kind, and for game ids the same game. */
export function wantedForProduct(product: PrepaidProduct, valid: (target: string) => boolean): TargetWanted {
  const kind = customerKindOfProduct(product);
  const provider = product.provider.toLowerCase();
  return {
    kind,
    fitsSaved: (c) => {
      if (kind === "id") return c.code === product.code || (c.title ?? "").toLowerCase().includes(provider);
      // Of the bill numbers only PLN's customer id also buys a token; a BPJS or PDAM number never does.
      if (kind === "number" && c.source === "postpaid") return /pln/i.test(`${c.code ?? ""} ${c.title ?? ""}`);
      return true;
    },
    fitsTx: (tx) =>
      tx.kind === "prepaid" && customerKindOfTx(tx) === kind && (kind !== "id" || (detailOf(tx, "prepaid").provider ?? "").toLowerCase() === provider),
    valid,
  };
}
