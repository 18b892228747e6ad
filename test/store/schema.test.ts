import { describe, expect, it } from "vitest";
import { checkChatShard, checkTxShard } from "../../src/store/file/schema.js";
import { ChatRecordSchema, describeIssues, TxRecordSchema } from "../../src/store/records.js";
import { StoreCorruptError } from "../../src/store/errors.js";
import * as z from "../../src/tools/zod.js";

// The shard check takes a quick path for records that fit as stored: whatever path it takes, what
// the store loads (or the refusal it names) must be exactly what zod makes of the same file.
const chat = { chatId: 7, apiKeyEnc: "v1.abc", keyMask: "abcd…wxyz", linkedAt: 1, createdAt: 1, updatedAt: 2 };
const tx = { refId: "R1", chatId: 7, kind: "prepaid", status: "pending", amount: 5000, createdAt: 1, updatedAt: 2 };

const chats: Record<string, unknown> = {
  plain: chat,
  "every field": {
    ...chat,
    lang: "en",
    alertThreshold: 50_000,
    alertFired: false,
    shopName: "Toko",
    customers: [{ id: "c1", name: "Ibu", kind: "phone", target: "0812", source: "prepaid", createdAt: 1 }],
    pricing: { all: { flat: 500 }, categories: { pulsa: { percent: 2.5 } }, fixed: { S5: 6000 }, billFee: 0 },
  },
  "a key no version declares": { ...chat, legacy: true },
  "a markup with both kinds": { ...chat, pricing: { all: { flat: 1, percent: 2 } } },
  "a customer with an extra key": { ...chat, customers: [{ id: "c1", name: "A", kind: "id", target: "1", createdAt: 1, x: 1 }] },
  "a fractional chat id": { ...chat, chatId: 7.5 },
  "a negative markup": { ...chat, pricing: { all: { flat: -1 } } },
  "a wrong language": { ...chat, lang: "fr" },
  "no createdAt": { chatId: 7, updatedAt: 2 },
  "a string number": { ...chat, linkedAt: "1" },
  "null where a string goes": { ...chat, keyMask: null },
  "an array": [chat],
};
const txs: Record<string, unknown> = {
  plain: tx,
  "with detail and watch": { ...tx, kind: "deposit", detail: { expiresAt: null, instructions: "due", offers: [3] }, sn: null, watch: { nextCheckAt: 3, attempts: 1, notified: "pending" } },
  "a detail key no version declares": { ...tx, detail: { category: "pulsa", old: 1 } },
  "an unknown kind": { ...tx, kind: "crypto" },
  "an empty reference id": { ...tx, refId: "" },
  "a wrong status": { ...tx, status: "weird" },
};

/** What zod alone makes of the shard: its records, or the refusal naming the file. */
function byZod<S extends z.ZodMiniType>(file: string, shard: S, data: unknown) {
  const r = z.safeParse(shard, data);
  return r.success ? { data: r.data } : { message: new StoreCorruptError(file, describeIssues(r.error)).message };
}
const ChatShard = z.object({ chats: z.array(ChatRecordSchema) });
const TxShard = z.object({ txs: z.array(TxRecordSchema) });

describe("loading a shard: the quick path gives what zod gives", () => {
  for (const [name, record] of Object.entries(chats)) {
    it(`chat: ${name}`, () => {
      const data = { chats: [chat, record] };
      const expected = byZod("f.json", ChatShard, data);
      if (expected.data) expect(checkChatShard("f.json", data)).toStrictEqual(expected.data.chats);
      else expect(() => checkChatShard("f.json", data)).toThrow(expected.message!);
    });
  }
  for (const [name, record] of Object.entries(txs)) {
    it(`transaction: ${name}`, () => {
      const data = { txs: [tx, record] };
      const expected = byZod("f.json", TxShard, data);
      if (expected.data) expect(checkTxShard("f.json", data)).toStrictEqual(expected.data.txs);
      else expect(() => checkTxShard("f.json", data)).toThrow(expected.message!);
    });
  }
});
