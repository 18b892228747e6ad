/**
 * docs/receipt.png: a sample sale's customer receipt, drawn by the bot's own renderer (the same
 * functions the 🧾 Struk button uses), so docs/shop.md shows exactly what a customer gets.
 * Run with `npm run shots`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createTranslate } from "../src/render/i18n.js";
import { svgToPng } from "../src/render/png.js";
import { customerReceipt, RECEIPT_WIDTH, receiptSvg } from "../src/render/receiptImage.js";
import type { TxRecord } from "../src/store/index.js";

const at = Date.UTC(2026, 10, 23, 7, 5); // 23 Nov 2026, 14.05 WIB
const sale: TxRecord = {
  refId: "TX261123P8K2M4Q7",
  chatId: 1,
  kind: "prepaid",
  status: "success",
  upstreamId: "TRX8812345",
  code: "PLN50",
  title: "PLN 50.000",
  target: "14234567890",
  amount: 50_113,
  sn: "5718-2046-3391-8820-4417/BUDI SANTOSO/R1/1300VA/32,5kWh",
  sale: { price: 52_500, profit: 2_387 },
  detail: { category: "PLN", provider: "PLN" },
  createdAt: at,
  updatedAt: at,
};
const shop = { shopName: "Cell Jaya Pulsa", shopFooter: "Jl. Melati No. 5, Bekasi · WA 0812-3456-7890" };

const receipt = customerReceipt(createTranslate(), "id", sale, shop, false);
const png = await svgToPng(receiptSvg(receipt), RECEIPT_WIDTH);
mkdirSync("docs", { recursive: true });
writeFileSync("docs/receipt.png", png);
process.stdout.write(`docs/receipt.png: ${png.length} bytes\n`);
