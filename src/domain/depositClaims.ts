/**
 * Claims on a deposit's record, made by compare-and-set before the provider call they cover: its cancel
 * (of two taps one calls the provider) and the messages that offered its instant release.
 */
import { detailOf, type TxRecord } from "../store/index.js";
import type { Ledger } from "./ledger.js";

/** A paid deposit waiting for settlement whose release was never asked for. */
export function releasable(tx: Readonly<TxRecord>): boolean {
  // A downline's wallet deposit is credited once paid: never released (docs/wallets.md).
  return tx.kind === "deposit" && tx.status === "processing" && tx.upstreamId !== undefined && !tx.wallet && detailOf(tx, "deposit").instant === undefined;
}

/** Remembers a message offering the release (besides the deposit's own), so the release can update it. */
export async function rememberReleaseOffer(ledger: Ledger, tx: Readonly<TxRecord>, messageId: number): Promise<void> {
  if (!releasable(tx) || messageId === tx.messageId) return;
  const latest = await ledger.get(tx.refId);
  if (!latest) return;
  const d = detailOf(latest, "deposit");
  if (d.offers?.includes(messageId)) return;
  await ledger.update(tx.refId, { detail: { ...d, offers: [...(d.offers ?? []), messageId].slice(-10) } });
  await ledger.flush();
}

/** A claim older than this is a stopped process's: the provider call it covers ends long before. */
const CANCEL_CLAIM_MS = 2 * 60_000;

/**
 * Claims the cancel of a pending deposit in the store (compare-and-set, flushed) before the provider
 * call: of two taps, on this process or another behind the load balancer, one calls the provider.
 * The claimed record; "taken" while another claim runs or once another cancelled it (that one says
 * so, however late this tap comes); undefined once it is otherwise no longer pending.
 */
export async function claimCancel(ledger: Ledger, now: number, refId: string): Promise<Readonly<TxRecord> | "taken" | undefined> {
  const free = (c: Readonly<TxRecord>) => {
    const since = detailOf(c, "deposit").cancelling;
    return since === undefined || now - since > CANCEL_CLAIM_MS;
  };
  for (;;) {
    const latest = await ledger.get(refId);
    if (latest?.status === "cancel") return "taken";
    if (!latest || latest.status !== "pending") return undefined;
    if (!free(latest)) return "taken";
    // Unchanged since read, so the detail written back loses nothing another step wrote meanwhile.
    const unchanged = (c: Readonly<TxRecord>) => free(c) && c.updatedAt === latest.updatedAt;
    const claimed = await ledger.transition(refId, ["pending"], { detail: { ...detailOf(latest, "deposit"), cancelling: now } }, unchanged);
    if (claimed) {
      await ledger.flush();
      return claimed;
    }
  }
}

/** Removes our claim, whatever the status became meanwhile: a later cancel may ask the provider again. */
export async function dropCancelClaim(ledger: Ledger, claimed: Readonly<TxRecord>): Promise<void> {
  const ours = detailOf(claimed, "deposit").cancelling;
  for (;;) {
    const latest = await ledger.get(claimed.refId);
    if (!latest || detailOf(latest, "deposit").cancelling !== ours) return;
    const { cancelling: _claim, ...detail } = detailOf(latest, "deposit");
    const unchanged = (c: Readonly<TxRecord>) => c.updatedAt === latest.updatedAt;
    if (await ledger.transition(claimed.refId, [latest.status], { detail }, unchanged)) break;
  }
  await ledger.flush();
}
