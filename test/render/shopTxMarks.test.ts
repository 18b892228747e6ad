/**
 * A shop order's QRIS payment and purchase sit in the owner's ledger beside the owner's own: /status,
 * /riwayat and /ekspor say they are the online shop's, with the order's reference, so the owner does
 * not read a customer's payment as a deposit of their own.
 */
import { describe, expect, it } from "vitest";
import { createTranslate } from "../../src/render/i18n.js";
import { receiptText } from "../../src/render/receipt.js";
import { csvRow } from "../../src/render/exportCsv.js";
import { txButtonLabel, txLine } from "../../src/bot/features/history.js";
import type { BaseContext } from "../../src/bot/context.js";
import type { Lang, TxRecord } from "../../src/store/index.js";

const t = createTranslate();
const at = Date.UTC(2026, 10, 23, 7, 5);
const core = "261123ABCDEFGH";
const shopDeposit = {
  refId: `SQ${core}`, chatId: 1, kind: "deposit", status: "processing", title: "QRIS", amount: 21_000, detail: {}, createdAt: at, updatedAt: at,
} as TxRecord;
const shopPurchase = {
  refId: `SP${core}1`, chatId: 1, kind: "prepaid", status: "success", code: "PLN20", title: "PLN 20.000", target: "12345678901",
  amount: 20_300, sale: { price: 21_000, profit: 700 }, sn: "1111-2222", detail: {}, createdAt: at, updatedAt: at,
} as TxRecord;
const ownDeposit = { ...shopDeposit, refId: "DP261123ABCDEFGH" } as TxRecord;

const ctxOf = (lang: Lang) => ({ lang, translate: t, t: (key: string, vars?: Record<string, string | number>) => t(lang, key, vars) }) as unknown as BaseContext;

describe("a shop order's records in the owner's views", () => {
  for (const [lang, mark, order, by] of [["id", "toko online", "Pesanan toko", "Toko online"], ["en", "online shop", "Shop order", "Online shop"]] as const) {
    it(`/status names the shop and the order (${lang}); the owner's own deposit stays plain`, () => {
      for (const tx of [shopDeposit, shopPurchase]) {
        const text = receiptText(t, lang, tx);
        expect(text).toContain(`(${mark})`);
        expect(text).toContain(`${order}: <code>SO${core}</code>`);
      }
      expect(receiptText(t, lang, ownDeposit)).not.toContain(mark);
    });

    it(`/riwayat marks the shop's lines and buttons (${lang})`, () => {
      const ctx = ctxOf(lang);
      expect(txLine(ctx, shopDeposit)).toContain(mark);
      expect(txButtonLabel(ctx, shopDeposit)).toContain("🛒");
      expect(txLine(ctx, ownDeposit)).not.toContain(mark);
      expect(txButtonLabel(ctx, ownDeposit)).not.toContain("🛒");
    });

    it(`/ekspor says the shop made it, not the owner (${lang})`, () => {
      expect(csvRow(t, lang, shopPurchase).at(-1)).toBe(by);
      expect(csvRow(t, lang, ownDeposit).at(-1)).toBe(lang === "id" ? "Pemilik" : "Owner");
    });
  }
});
