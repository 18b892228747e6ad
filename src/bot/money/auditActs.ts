/** Money acts on the audit log: what and how much, by reference. A failed log write never stops the money path. */
import { audit, type AuditAct } from "../../domain/audit.js";
import type { TxRecord } from "../../store/index.js";
import type { BaseContext } from "../context.js";

export async function logAct(ctx: BaseContext, act: AuditAct, tx: Pick<TxRecord, "refId" | "amount" | "title" | "target">): Promise<void> {
  const what = [tx.refId, String(tx.amount), tx.title, tx.target].filter((p) => p !== undefined && p !== "").join(" · ");
  await audit(ctx, act, undefined, what).catch((err: unknown) => ctx.deps.logger.error({ err, refId: tx.refId, act }, "audit entry not written"));
}
