/**
 * Looks one transaction up at the provider and applies the answer to the store. Shared by the
 * status watcher and by /status, so both read the provider the same way:
 *
 *  - the provider's id when we have it; otherwise (create outcome unknown) our reference id, since
 *    the status endpoints may know a transaction by its reff_id (undocumented; the sandbox does);
 *  - "not found" never turns into failed or success: only the provider's own status does;
 *  - a deposit the provider calls `expired` stays open until `lateMs` after its expiry (a QRIS can
 *    still be paid shortly after), and only then becomes a final `expired`;
 *  - the store is changed with a compare-and-set on the status we looked up (and on the detail as
 *    read), so a concurrent change (the user cancelled a deposit or claimed its cancel, /status raced
 *    the watcher) is never overwritten; a change that cannot be saved is taken back (its caller
 *    shows an error, so the watcher must tell it later).
 */
import { isDeepStrictEqual } from "node:util";
import type { Clock } from "../tools/clock.js";
import type { Store, TxPatch } from "../store/index.js";
import { detailOf, OPEN_STATUSES, type TxDetail, type TxRecord, type TxStatus } from "../store/index.js";
import type { UpstreamClient } from "../upstream/client.js";
import { UpstreamError, UpstreamRejected } from "../upstream/errors.js";
import type { Deposit } from "../upstream/types.js";
import { toldByOrder } from "./shop/orders.js";

/** The four status endpoints (the rest of the client is not needed here). */
export type StatusApi = Pick<UpstreamClient, "prepaidStatus" | "postpaidStatus" | "transferStatus" | "depositStatus"> &
  /** Whether the key still answers (a refused key also reads as "not found"); without it nothing is failed as absent. */
  Partial<Pick<UpstreamClient, "getProfile">>;

export interface LookupOptions {
  /** How long after its `detail.expiresAt` a deposit the provider calls expired is kept open. */
  depositLateMs: number;
}

export const DEFAULT_DEPOSIT_LATE_MS = 30 * 60_000;

/** What the provider said, translated into what the store should hold. */
export type Lookup =
  | {
      kind: "found";
      /** The status the store should have now (may equal the current one). */
      status: TxStatus;
      /** The provider's own word (e.g. `expired` while the deposit is still kept open). */
      providerStatus: string;
      /** Fields to record besides the status (ids, sn, amounts, failure reason). */
      fields: TxPatch;
      /** Keys merged into `detail` at write time (never replacing the whole object). */
      detail?: TxDetail | undefined;
    }
  /** The provider refused the lookup (unknown id, or a refused key): nothing learned. */
  | { kind: "not-found"; message: string }
  /** No usable answer (timeout, outage, unreadable): nothing learned, try later. */
  | { kind: "error"; error: UpstreamError };

/** When a deposit stops being payable late: expiry (or creation, if unknown) plus the grace. */
export function depositLateDeadline(tx: TxRecord, lateMs: number): number {
  return (detailOf(tx, "deposit").expiresAt ?? tx.createdAt) + lateMs;
}

/** Asks the provider about `tx`. Never throws for provider trouble; bugs still throw. */
export async function lookupTx(upstream: StatusApi, apiKey: string, tx: TxRecord, now: number, opts: LookupOptions): Promise<Lookup> {
  const id = tx.upstreamId ?? tx.refId;
  // A lookup by our reference must match it: a provider id that happens to equal it is not ours.
  const learnId = (upstreamId: string | undefined, reffId: string | undefined): TxPatch =>
    tx.upstreamId === undefined && upstreamId && (reffId === undefined || reffId === tx.refId) ? { upstreamId } : {};
  try {
    switch (tx.kind) {
      case "prepaid": {
        const r = await upstream.prepaidStatus(apiKey, id);
        if (!tx.upstreamId && r.reffId && r.reffId !== tx.refId) return notOurs(tx);
        return found(r.status, {
          ...learnId(r.id, r.reffId),
          ...saleFields(r.status, r.sn),
          ...(r.price > 0 && r.price !== tx.amount ? { amount: r.price } : {}),
        });
      }
      case "postpaid": {
        const r = await upstream.postpaidStatus(apiKey, id);
        if (!tx.upstreamId && r.reffId && r.reffId !== tx.refId) return notOurs(tx);
        // `harga` is the reseller's cost, not the bill total in `amount`: kept aside.
        return found(r.status, { ...learnId(r.id, r.reffId), ...saleFields(r.status, r.sn) }, r.price > 0 ? { cost: r.price } : undefined);
      }
      case "transfer": {
        const r = await upstream.transferStatus(apiKey, id);
        if (!tx.upstreamId && r.reffId && r.reffId !== tx.refId) return notOurs(tx);
        return found(r.status, {
          ...learnId(r.id, r.reffId),
          ...(r.fee > 0 ? { fee: r.fee } : {}),
          ...(r.total > 0 ? { total: r.total } : {}),
        });
      }
      case "deposit": {
        const r = await upstream.depositStatus(apiKey, id);
        if (!tx.upstreamId && r.reffId && r.reffId !== tx.refId) return notOurs(tx);
        let status: TxStatus = r.status;
        if (r.status === "expired" && now < depositLateDeadline(tx, opts.depositLateMs)) {
          // Still payable late: keep it open (as pending) until the grace ends.
          status = OPEN_STATUSES.has(tx.status) && tx.status !== "processing" ? "pending" : tx.status;
        }
        const detail: TxDetail = {
          ...(r.credited !== undefined && r.credited > 0 ? { credited: r.credited } : {}),
          ...paymentFields(tx, r),
          // Found unpaid after a create whose answer was lost: the chat never got the payment instructions.
          ...(status === "pending" && (tx.status === "sending" || tx.status === "unknown") && !toldByOrder(tx.refId) ? { instructions: "due" as const } : {}),
        };
        return {
          kind: "found",
          status,
          providerStatus: r.status,
          fields: { ...learnId(r.id, r.reffId), ...(r.fee !== undefined && r.fee > 0 ? { fee: r.fee } : {}) },
          detail: Object.keys(detail).length > 0 ? detail : undefined,
        };
      }
    }
  } catch (err) {
    if (err instanceof UpstreamRejected) return { kind: "not-found", message: err.providerMessage };
    if (err instanceof UpstreamError) return { kind: "error", error: err };
    throw err;
  }
}

/** The payment details a status answer carries (the documented one carries none) that the record lacks. */
function paymentFields(tx: TxRecord, r: Deposit): TxDetail {
  const d = detailOf(tx, "deposit");
  const out: Record<string, string | number> = {};
  const learn = (key: "qrString" | "vaNumber" | "bank" | "accountNumber" | "accountHolder" | "url", v: string | undefined) => {
    if (v && !d[key]) out[key] = v;
  };
  learn("qrString", r.qrString);
  learn("vaNumber", r.vaNumber);
  learn("bank", r.bank);
  learn("accountNumber", r.accountNumber);
  learn("accountHolder", r.accountHolder);
  learn("url", r.url);
  if (r.expiresAt && d.expiresAt == null) out.expiresAt = r.expiresAt.getTime();
  return out as TxDetail;
}

function found(status: TxStatus, fields: TxPatch, detail?: TxDetail): Lookup {
  return { kind: "found", status, providerStatus: status, fields, detail };
}

function notOurs(tx: TxRecord): Lookup {
  return { kind: "not-found", message: `the provider's record for ${tx.refId} carries another reference` };
}

/** The sn is a serial/token on success and the provider's remark on failure. */
function saleFields(status: string, sn: string | null): TxPatch {
  if (status === "failed") return sn ? { message: sn, sn: undefined } : {};
  return sn ? { sn } : {};
}

/** The patch of a lookup against the current record, without the writes that change nothing. */
export function lookupPatch(current: TxRecord, lookup: Lookup, opts: { withStatus: boolean }): TxPatch {
  if (lookup.kind !== "found") return {};
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(lookup.fields)) {
    if ((current as unknown as Record<string, unknown>)[k] !== v) patch[k] = v;
  }
  if (lookup.detail) {
    const before: Readonly<Record<string, unknown>> = current.detail ?? {};
    const changed = Object.entries(lookup.detail).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v));
    if (changed.length > 0) patch.detail = { ...current.detail, ...Object.fromEntries(changed) };
  }
  if (opts.withStatus && lookup.status !== current.status) patch.status = lookup.status;
  return patch as TxPatch;
}

export interface RefreshDeps {
  store: Store;
  upstream: StatusApi;
  clock: Clock;
}

export interface RefreshResult {
  /** The record after the refresh (unchanged when nothing was learned). */
  tx: TxRecord;
  /** The status before the refresh. */
  before: TxStatus;
  /** True when the status changed by this refresh. */
  changed: boolean;
  lookup: Lookup;
}

/**
 * One manual check: look up, then write what was learned (status included) with a
 * compare-and-set on the status we started from and, when the detail is written, on the detail
 * as read (tried again over a fresh read when another step wrote it). Final records are shown as stored.
 */
export async function refreshTx(deps: RefreshDeps, apiKey: string, tx: TxRecord, opts: LookupOptions): Promise<RefreshResult> {
  const before = tx.status;
  const lookup = await lookupTx(deps.upstream, apiKey, tx, deps.clock.now(), opts);
  let updated: Readonly<TxRecord> | undefined;
  for (let attempt = 1; !updated; attempt++) {
    const current = await deps.store.getTx(tx.refId) ?? tx;
    if (current.status !== before) return { tx: current, before, changed: false, lookup };
    const patch = lookupPatch(current, lookup, { withStatus: true });
    if (Object.keys(patch).length === 0) return { tx: current, before, changed: false, lookup };
    // The detail is written whole: only over the detail read here, so a step that wrote it meanwhile
    // (a deposit's cancel claim, saved before its provider call) keeps what it wrote. Then read again.
    const unchanged = patch.detail === undefined ? undefined : (c: Readonly<TxRecord>) => isDeepStrictEqual(c.detail, current.detail);
    updated = await deps.store.transitionTx(tx.refId, [before], patch, unchanged);
    if (!updated && attempt >= 3) return { tx: await deps.store.getTx(tx.refId) ?? current, before, changed: false, lookup };
  }
  const saved = updated;
  try {
    await deps.store.flush();
  } catch (err) {
    // Not saved, and the caller shows an error instead: the status goes back, so the record stays
    // open and the watcher tells the change once the store can save. A status is never stored untold.
    if (saved.status !== before) {
      await deps.store.transitionTx(tx.refId, [saved.status], { status: before }, (c) => c.updatedAt === saved.updatedAt);
    }
    throw err;
  }
  return { tx: saved, before, changed: saved.status !== before, lookup };
}
