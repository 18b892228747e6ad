/** The network's figures from records alone (domain/networkReport.ts). */
import { describe, expect, it } from "vitest";
import { commissionsEarned, networkSummary, ownSummary } from "../../src/domain/networkReport.js";
import type { TxRecord, WalletEntry } from "../../src/store/index.js";

const AT = Date.UTC(2026, 0, 10, 5);
const DAY = "2026-01-10";

function tx(refId: string, chat: number, cost: number, price: number, extra: Partial<TxRecord> & { level?: number; commission?: number } = {}): TxRecord {
  const { level, commission, ...rest } = extra;
  return {
    refId, chatId: 1, kind: "prepaid", status: "success", amount: cost, createdAt: AT, updatedAt: AT, by: chat,
    sale: { price, profit: price - cost },
    wallet: { chat, price, state: "posted", ...(level !== undefined ? { level } : {}), ...(commission ? { commissions: [{ chat: 99, amount: commission }] } : {}) },
    ...rest,
  } as TxRecord;
}

describe("networkSummary", () => {
  it("counts a sale at the buyer's level when it was made (a level change counts from the next purchase)", () => {
    const s = networkSummary([tx("a", 7, 10_000, 11_000, { level: 1 }), tx("b", 7, 10_000, 10_500)], DAY, DAY, () => 2);
    expect(s.levels).toEqual([
      { level: 1, sales: 1, turnover: 11_000, margin: 1_000 },
      { level: 2, sales: 1, turnover: 10_500, margin: 500 },
    ]);
    expect(s.downlines).toEqual([{ chat: 7, sales: 2, turnover: 21_500, margin: 1_500 }]);
  });

  it("the margin leaves out the uplines' commissions, summed apart; the owner's own sales and failures are not the network's", () => {
    const owners = { ...tx("o", 0, 1_000, 2_000), by: undefined, wallet: undefined } as TxRecord;
    const s = networkSummary([tx("a", 7, 10_000, 12_000, { commission: 500 }), tx("f", 7, 10_000, 12_000, { status: "failed" }), owners], DAY, DAY, () => 0);
    expect(s).toMatchObject({ sales: 1, turnover: 12_000, margin: 1_500, commissions: 500 });
  });
});

it("a downline's own figures: what it paid, failures, and commissions net of reversals", () => {
  expect(ownSummary([tx("a", 7, 10_000, 11_000), tx("b", 7, 1, 6_000, { status: "failed" }), tx("c", 8, 1, 9_000)], 7, DAY, DAY)).toEqual({ sales: 1, failed: 1, spend: 11_000 });
  const e = (ref: string, kind: WalletEntry["kind"], amount: number) => ({ ref, wallet: 7, owner: 1, amount, kind, seq: 1, balance: 0, at: AT }) as WalletEntry;
  expect(commissionsEarned([e("x:c7", "commission", 400), e("y:c7", "commission", 300), e("y:rc7", "refund", -300), e("z:r", "refund", 5_000)], DAY, DAY)).toBe(400);
});
