import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { ApiKeyDecryptError, DuplicateTxError, StoreClosedError, UnknownTxError, type NewTx } from "../../src/store/file/fileStore.js";
import type { TxOf } from "../../src/store/index.js";
import { allFiles, openStore, SECRET, tempDir } from "./helpers.js";

const RAW_KEY = "RAWKEY-a1b2c3d4e5f6g7h8i9j0-SECRETPART";

function tx(refId: string, chatId = 1, extra: Partial<Omit<TxOf<"prepaid">, "kind">> = {}): NewTx {
  return { refId, chatId, kind: "prepaid", status: "draft", amount: 10_000, code: "S10", target: "0812", ...extra };
}

const PERIOD = { period: "202601", amount: 50_000, admin: 2_500, penalty: null };

/** A postpaid bill: the kind with nested detail (periods). */
function bill(refId: string, chatId = 1): NewTx {
  return { ...tx(refId, chatId), kind: "postpaid", detail: { customerName: "BUDI", periods: [{ ...PERIOD }] } };
}

describe("Store round trip", () => {
  it("creates a missing directory and starts empty", async () => {
    const dir = `${await tempDir()}/nested/data`;
    const store = await openStore(dir);
    expect(await store.chatCount()).toBe(0);
    expect(await store.openTxs()).toEqual([]);
    expect(await store.getMeta("x")).toBeUndefined();
    const files = [...(await allFiles(dir)).keys()];
    expect(files.some((f) => f.endsWith("store/meta.json"))).toBe(true);
  });

  it("keeps chats, lang, keys, transactions and meta across reopen", async () => {
    const dir = await tempDir();
    const clock = new ManualClock(1_000_000);
    const a = await openStore(dir, { clock });
    await a.updateChat(1, { lang: "en", alertThreshold: 50_000 });
    await a.setApiKey(1, RAW_KEY);
    await a.updateChat(-1001234567890, { lang: "id", inactive: true });
    await a.createTx(bill("R1", 1));
    await clock.advance(5);
    await a.createTx(tx("R2", 1, { status: "pending", upstreamId: "UP-2" }));
    await a.setMeta("broadcast", { id: "b1", sent: 3 });
    await a.close();

    const b = await openStore(dir, { clock });
    expect(await b.chatCount()).toBe(2);
    expect(await b.getChat(1)).toMatchObject({ chatId: 1, lang: "en", alertThreshold: 50_000, keyMask: "RAWK…PART" });
    expect((await b.getChat(1))?.linkedAt).toBe(1_000_000);
    expect(await b.getApiKey(1)).toBe(RAW_KEY);
    expect(await b.getChat(-1001234567890)).toMatchObject({ lang: "id", inactive: true });
    expect((await b.linkedChats()).map((c) => c.chatId)).toEqual([1]);
    expect((await b.getTx("R1"))?.detail).toEqual({ customerName: "BUDI", periods: [PERIOD] });
    expect((await b.findTx(1, "UP-2"))?.refId).toBe("R2");
    expect((await b.openTxs()).map((t) => t.refId)).toEqual(["R2"]);
    expect((await b.listTxByChat(1)).items.map((t) => t.refId)).toEqual(["R2", "R1"]);
    expect(await b.getMeta("broadcast")).toEqual({ id: "b1", sent: 3 });
  });

  it("sets createdAt once and updatedAt on every change; undefined removes a field", async () => {
    const clock = new ManualClock(100);
    const store = await openStore(await tempDir(), { clock });
    await store.updateChat(7, { alertThreshold: 1000 });
    await clock.advance(50);
    const c = await store.updateChat(7, { alertThreshold: undefined, alertFired: false });
    expect(c).toEqual({ chatId: 7, alertFired: false, createdAt: 100, updatedAt: 150 });
    expect("alertThreshold" in c).toBe(false);
  });

  it("hands out frozen records the caller cannot change", async () => {
    const store = await openStore(await tempDir());
    const input = bill("R1", 1);
    await store.createTx(input);
    const periods = input.kind === "postpaid" ? input.detail!.periods! : [];
    periods[0]!.amount = 2; // the caller's own object stays theirs
    const got = (await store.getTx("R1"))!;
    expect(got.detail).toEqual({ customerName: "BUDI", periods: [PERIOD] });
    expect(() => {
      (got as { status: string }).status = "success";
    }).toThrow(TypeError);
    expect(() => {
      (got.kind === "postpaid" ? got.detail!.periods![0]! : { amount: 0 }).amount = 3;
    }).toThrow(TypeError);
    expect(Object.isFrozen(await store.updateChat(1, { lang: "id" }))).toBe(true);
  });

  it("refuses values JSON cannot round-trip", async () => {
    const store = await openStore(await tempDir());
    await expect(store.createTx(tx("R1", 1, { detail: { category: new Date() as never } }))).rejects.toThrow(/not a plain JSON object/);
    await expect(store.createTx(tx("R2", 1, { amount: Number.NaN }))).rejects.toThrow(/finite/);
    await expect(store.createTx(tx("R3", 1, { status: "bogus" as never }))).rejects.toThrow(/status/);
    expect(await store.getTx("R1")).toBeUndefined();
  });

  it("refuses changes after close", async () => {
    const store = await openStore(await tempDir());
    await store.close();
    await expect(store.updateChat(1, {})).rejects.toThrow(StoreClosedError);
    await store.close(); // idempotent
  });
});

describe("api keys at rest", () => {
  it("never writes the raw key, and clears it", async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    await store.setApiKey(42, RAW_KEY);
    await store.setMeta("note", "nothing secret");
    await store.flush();
    const files = await allFiles(dir);
    expect(files.size).toBeGreaterThan(1);
    for (const [path, bytes] of files) {
      expect(bytes.includes(RAW_KEY), path).toBe(false);
      expect(bytes.includes("a1b2c3d4e5f6g7h8i9j0"), path).toBe(false);
    }
    expect((await store.getChat(42))?.apiKeyEnc).toMatch(/^v1\./);
    expect(await store.getApiKey(42)).toBe(RAW_KEY);

    await store.clearApiKey(42);
    expect(await store.getApiKey(42)).toBeUndefined();
    expect(await store.getChat(42)).not.toHaveProperty("keyMask");
    expect(await store.linkedChats()).toEqual([]);
    expect(await store.getApiKey(999)).toBeUndefined();
  });

  it("fails clearly with a wrong secret, and will not mix secrets", async () => {
    const dir = await tempDir();
    const a = await openStore(dir);
    await a.setApiKey(1, RAW_KEY);
    await a.close();

    const b = await openStore(dir, { secret: `${SECRET}-wrong` });
    expect(b.secretMatches()).toBe(false);
    await expect(b.getApiKey(1)).rejects.toThrow(ApiKeyDecryptError);
    await expect(b.getApiKey(1)).rejects.toThrow(/chat 1.*secret/);
    await expect(b.setApiKey(2, "another-key-123456")).rejects.toThrow(/secret/);
    await b.close();

    const c = await openStore(dir);
    expect(c.secretMatches()).toBe(true);
    expect(await c.getApiKey(1)).toBe(RAW_KEY);
  });

  it("re-linking reactivates a chat that had blocked the bot", async () => {
    const store = await openStore(await tempDir());
    await store.setApiKey(5, RAW_KEY);
    await store.updateChat(5, { inactive: true });
    expect(await store.linkedChats()).toEqual([]);
    await store.setApiKey(5, RAW_KEY);
    expect((await store.linkedChats()).map((c) => c.chatId)).toEqual([5]);
  });
});

describe("transactions", () => {
  it("createTx refuses a duplicate refId", async () => {
    const store = await openStore(await tempDir());
    await store.createTx(tx("R1"));
    await expect(store.createTx(tx("R1", 2))).rejects.toThrow(DuplicateTxError);
    expect((await store.getTx("R1"))?.chatId).toBe(1);
  });

  it("transitionTx is a compare-and-set: a double Confirm sends once", async () => {
    const store = await openStore(await tempDir());
    await store.createTx(tx("R1"));
    const first = await store.transitionTx("R1", ["draft"], { status: "sending" });
    const second = await store.transitionTx("R1", ["draft"], { status: "sending" });
    expect(first?.status).toBe("sending");
    expect(second).toBeUndefined();
    expect(await store.transitionTx("nope", ["draft"], { status: "sending" })).toBeUndefined();
    expect((await store.transitionTx("R1", ["sending", "unknown"], { status: "pending", upstreamId: "U1" }))?.upstreamId).toBe("U1");
  });

  it("updateTx keeps identity fields and throws for an unknown refId", async () => {
    const clock = new ManualClock(1000);
    const store = await openStore(await tempDir(), { clock });
    await store.createTx(tx("R1"));
    await clock.advance(10);
    const t = await store.updateTx("R1", { status: "success", sn: "SN123", refId: "X", createdAt: 0 } as never);
    expect(t).toMatchObject({ refId: "R1", chatId: 1, status: "success", sn: "SN123", createdAt: 1000, updatedAt: 1010 });
    await expect(store.updateTx("missing", { status: "failed" })).rejects.toThrow(UnknownTxError);
  });

  it("findTx matches our refId or the provider's id, only within the chat", async () => {
    const store = await openStore(await tempDir());
    await store.createTx(tx("R1", 1, { upstreamId: "U1" }));
    await store.createTx(tx("R2", 2));
    expect((await store.findTx(1, "R1"))?.refId).toBe("R1");
    expect((await store.findTx(1, "U1"))?.refId).toBe("R1");
    expect(await store.findTx(2, "R1")).toBeUndefined();
    expect(await store.findTx(2, "U1")).toBeUndefined();
    await store.updateTx("R1", { upstreamId: "U1b" });
    expect(await store.findTx(1, "U1")).toBeUndefined();
    expect((await store.findTx(1, "U1b"))?.refId).toBe("R1");
  });

  it("listTxByChat pages newest first with a total", async () => {
    const clock = new ManualClock(0);
    const store = await openStore(await tempDir(), { clock });
    for (let i = 1; i <= 25; i++) {
      await store.createTx(tx(`R${i}`, 1));
      await store.createTx(tx(`O${i}`, 2));
      await clock.advance(1000);
    }
    // Out-of-order createdAt (e.g. an import) still lands in its place.
    await store.createTx(tx("OLD", 1, { createdAt: 500 }));
    const p1 = await store.listTxByChat(1, { offset: 0, limit: 10 });
    expect(p1.total).toBe(26);
    expect(p1.items.map((t) => t.refId)).toEqual(["R25", "R24", "R23", "R22", "R21", "R20", "R19", "R18", "R17", "R16"]);
    const last = await store.listTxByChat(1, { offset: 20, limit: 10 });
    expect(last.items.map((t) => t.refId)).toEqual(["R5", "R4", "R3", "R2", "OLD", "R1"]);
    expect(await store.listTxByChat(1, { offset: 30, limit: 10 })).toEqual({ items: [], total: 26 });
    expect(await store.listTxByChat(3)).toEqual({ items: [], total: 0 });
  });

  it("openTxs follows status changes", async () => {
    const store = await openStore(await tempDir());
    await store.createTx(tx("D", 1));
    await store.createTx(tx("P", 1, { status: "pending" }));
    expect((await store.openTxs()).map((t) => t.refId)).toEqual(["P"]);
    await store.transitionTx("D", ["draft"], { status: "sending" });
    expect(new Set((await store.openTxs()).map((t) => t.refId))).toEqual(new Set(["D", "P"]));
    await store.updateTx("D", { status: "unknown" });
    await store.updateTx("P", { status: "success" });
    expect((await store.openTxs()).map((t) => t.refId)).toEqual(["D"]);
    expect((await store.openTxs())[0]?.status).toBe("unknown");
    await store.updateTx("D", { status: "failed", message: "timeout" });
    expect(await store.openTxs()).toEqual([]);
    expect(store.stats()).toMatchObject({ txs: 2, openTxs: 0 });
  });
});

describe("meta", () => {
  it("stores small JSON values and deletes with undefined", async () => {
    const store = await openStore(await tempDir());
    await store.setMeta("progress", { done: 10, ids: [1, 2] });
    expect((await store.getMeta<{ done: number }>("progress"))?.done).toBe(10);
    await store.setMeta("progress", undefined);
    expect(await store.getMeta("progress")).toBeUndefined();
  });
});
