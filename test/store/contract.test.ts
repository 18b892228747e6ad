/**
 * One suite, run against both stores (api.ts): the file store in a temp folder and PgStore on its
 * own PostgreSQL database (skipped when PostgreSQL is not installed). Whatever the bot relies on of
 * a store is asserted here, so a guarantee one store keeps and the other does not shows up as a failure.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import type { DocKind, NewTx, Store } from "../../src/store/api.js";
import * as z from "../../src/tools/zod.js";
import { ApiKeyDecryptError, DuplicateDocError, DuplicateTxError, StoreClosedError, StoreCorruptError, StoreSecretMismatchError, UnknownTxError } from "../../src/store/errors.js";
import type { TxOf } from "../../src/store/index.js";
import { closeOpened, stores } from "./places.js";

const RAW_KEY = "RAWKEY-a1b2c3d4e5f6g7h8i9j0-SECRETPART";
const DAY = 24 * 60 * 60 * 1000;

function tx(refId: string, chatId = 1, extra: Partial<Omit<TxOf<"prepaid">, "kind">> = {}): NewTx {
  return { refId, chatId, kind: "prepaid", status: "draft", amount: 10_000, code: "S10", target: "0812", ...extra };
}

/** One place a store lives (a folder, a database), opened as often as a test likes. */
afterEach(closeOpened);


describe.each(stores)("Store contract: $name", ({ place, skip, name }) => {
  it.skipIf(skip)("chats: created on update, a patch with undefined removes a field, updatedAt from the clock", async () => {
    const clock = new ManualClock(1_000);
    const s = await (await place()).open({ clock });
    expect(await s.getChat(7)).toBeUndefined();
    const a = await s.updateChat(7, { lang: "en", alertThreshold: 50_000 });
    expect(a).toMatchObject({ chatId: 7, lang: "en", alertThreshold: 50_000, createdAt: 1_000, updatedAt: 1_000 });
    expect(Object.isFrozen(a)).toBe(true);
    await clock.advance(10);
    const b = await s.updateChat(7, { alertThreshold: undefined, shopName: "Toko Budi" });
    expect(b).toEqual({ chatId: 7, lang: "en", shopName: "Toko Budi", createdAt: 1_000, updatedAt: 1_010 });
    expect(await s.getChat(7)).toEqual(b);
    expect(await s.chatCount()).toBe(1);
    expect(await s.updateChat(7, { lang: "not a language" }).catch((e: unknown) => e)).toBeInstanceOf(TypeError);
  });

  it.skipIf(skip)("chats: callback token lookup follows a new token; linked = has a key and not inactive", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.updateChat(1, { callbackToken: "tok-a" });
    expect((await s.chatByCallbackToken("tok-a"))?.chatId).toBe(1);
    await s.updateChat(1, { callbackToken: "tok-b" });
    expect(await s.chatByCallbackToken("tok-a")).toBeUndefined();
    expect((await s.chatByCallbackToken("tok-b"))?.chatId).toBe(1);

    await s.setApiKey(1, RAW_KEY);
    await s.setApiKey(2, RAW_KEY);
    await s.updateChat(3, { lang: "id" });
    await s.updateChat(2, { inactive: true });
    expect((await s.linkedChats()).map((c) => c.chatId)).toEqual([1]);
    expect((await s.allChats()).map((c) => c.chatId).sort()).toEqual([1, 2, 3]);
    expect(await s.storedKeyCount()).toBe(2);
    // Linking again in the chat makes it active again.
    await s.setApiKey(2, RAW_KEY);
    expect((await s.linkedChats()).map((c) => c.chatId).sort()).toEqual([1, 2]);
    await s.clearApiKey(1);
    expect(await s.getApiKey(1)).toBeUndefined();
    expect((await s.linkedChats()).map((c) => c.chatId)).toEqual([2]);
  });

  it.skipIf(skip)("api keys: stored encrypted (the raw key is nowhere, the mask is), readable after reopen", async () => {
    const p = await place();
    const clock = new ManualClock(5_000);
    const s = await p.open({ clock });
    const chat = await s.setApiKey(-1001234567890, RAW_KEY);
    expect(chat).toMatchObject({ keyMask: "RAWK…PART", linkedAt: 5_000 });
    expect(await s.getApiKey(-1001234567890)).toBe(RAW_KEY);
    await s.flush();
    const text = await p.allText();
    expect(text).toContain("RAWK…PART");
    expect(text).not.toContain(RAW_KEY);
    expect(text).not.toContain("a1b2c3d4e5f6g7h8i9j0");
    await s.close();
    const again = await p.open({ clock });
    expect(again.secretMatches()).toBe(true);
    expect(await again.getApiKey(-1001234567890)).toBe(RAW_KEY);
  });

  it.skipIf(skip)("api keys: the linked chats holding a key are found by its digest, never by its text", async () => {
    const p = await place();
    const s = await p.open({ clock: new ManualClock() });
    await s.setApiKey(1, RAW_KEY);
    await s.setApiKey(2, "OTHER-KEY-0123456789");
    await s.setApiKey(3, RAW_KEY);
    await s.setApiKey(4, RAW_KEY);
    await s.updateChat(4, { inactive: true });
    const ids = async (key: string) => (await s.chatsWithKey(key)).map((c) => c.chatId).sort();
    expect(await ids(RAW_KEY)).toEqual([1, 3]);
    expect(await ids("NOBODYS-KEY-0123456789")).toEqual([]);
    await s.clearApiKey(3);
    expect(await ids(RAW_KEY)).toEqual([1]);
    expect((await s.getChat(3))?.keyDigest).toBeUndefined();
    await s.flush();
    expect(await p.allText()).not.toContain(RAW_KEY);
  });

  it.skipIf(skip)("api keys: the key of a record in hand is decrypted without reading the chat again", async () => {
    const p = await place();
    const clock = new ManualClock();
    const s = await p.open({ clock });
    const linked = await s.setApiKey(7, RAW_KEY);
    const plain = await s.updateChat(8, { lang: "id" });
    const getChat = vi.spyOn(s, "getChat");
    expect(s.apiKeyOf(linked)).toBe(RAW_KEY);
    expect(s.apiKeyOf(plain)).toBeUndefined();
    expect(getChat).not.toHaveBeenCalled();
    await s.close();
    // Under another secret the record's key does not decrypt: refused, as getApiKey does.
    const wrong = await p.open({ clock, secret: "another-secret-0123456789" });
    expect(() => wrong.apiKeyOf(linked)).toThrow(ApiKeyDecryptError);
  });

  it.skipIf(skip)("api keys: a wrong secret is noticed; resetSecret drops unreadable keys and adopts the new secret", async () => {
    const p = await place();
    const clock = new ManualClock();
    const s = await p.open({ clock });
    await s.setApiKey(1, RAW_KEY);
    await s.updateChat(2, { lang: "id" });
    await s.close();

    const wrong = await p.open({ clock, secret: "another-secret-0123456789" });
    expect(wrong.secretMatches()).toBe(false);
    expect(await wrong.storedKeyCount()).toBe(1);
    await expect(wrong.getApiKey(1)).rejects.toBeInstanceOf(ApiKeyDecryptError);
    await expect(wrong.setApiKey(2, "NEWKEY-123456789")).rejects.toBeInstanceOf(StoreSecretMismatchError);
    expect(await wrong.resetSecret()).toEqual([1]);
    expect(wrong.secretMatches()).toBe(true);
    expect(await wrong.getChat(1)).toMatchObject({ keyLost: true, awaitingKey: true });
    expect((await wrong.getChat(1))?.apiKeyEnc).toBeUndefined();
    await wrong.setApiKey(2, "NEWKEY-123456789");
    await wrong.close();

    const after = await p.open({ clock, secret: "another-secret-0123456789" });
    expect(after.secretMatches()).toBe(true);
    expect(await after.getApiKey(2)).toBe("NEWKEY-123456789");
  });

  it.skipIf(skip)("transactions: create, duplicate refused, update removes a field, unknown refused", async () => {
    const clock = new ManualClock(1_000);
    const s = await (await place()).open({ clock });
    const t = await s.createTx(tx("R1", 1, { upstreamId: "U1", message: "x" }));
    expect(t).toMatchObject({ refId: "R1", status: "draft", createdAt: 1_000, updatedAt: 1_000 });
    await expect(s.createTx(tx("R1", 2))).rejects.toBeInstanceOf(DuplicateTxError);
    expect((await s.getTx("R1"))?.chatId).toBe(1);
    await clock.advance(10);
    const u = await s.updateTx("R1", { status: "success", sn: "SN1", message: undefined, refId: "X", createdAt: 0 } as never);
    expect(u).toMatchObject({ refId: "R1", chatId: 1, status: "success", sn: "SN1", createdAt: 1_000, updatedAt: 1_010 });
    expect(u.message).toBeUndefined();
    expect(await s.getTx("R1")).toEqual(u);
    await expect(s.updateTx("NOPE", { status: "failed" })).rejects.toBeInstanceOf(UnknownTxError);
    expect(await s.transitionTx("NOPE", ["draft"], { status: "sending" })).toBeUndefined();
    await expect(s.updateTx("R1", { detail: { quotedPrice: "bad" } as never })).rejects.toBeInstanceOf(TypeError);
  });

  it.skipIf(skip)("a record reads back as written, key order and any character included (refresh.ts compares details as JSON)", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    const period = { period: "202601", amount: 50_000, admin: 2_500, penalty: null };
    const created = await s.createTx({ ...tx("B1"), kind: "postpaid", detail: { customerName: "BUDI", periods: [period] } });
    expect(JSON.stringify(await s.getTx("B1"))).toBe(JSON.stringify(created));
    const updated = await s.updateTx("B1", { message: "Gagal\u0000 – 'kode' \"x\" 🙂" });
    expect(JSON.stringify(await s.getTx("B1"))).toBe(JSON.stringify(updated));
    await s.setMeta("broadcast", { text: "b", at: 1, a: [{ z: 1, y: "\u0000" }] });
    expect(JSON.stringify(await s.getMeta("broadcast"))).toBe(JSON.stringify({ text: "b", at: 1, a: [{ z: 1, y: "\u0000" }] }));
  });

  it.skipIf(skip)("transitionTx: of two racing transitions from draft exactly one wins", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createTx(tx("R1"));
    const results = await Promise.all([
      s.transitionTx("R1", ["draft"], { status: "sending", message: "a" }),
      s.transitionTx("R1", ["draft"], { status: "sending", message: "b" }),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    const winner = results.find((r) => r !== undefined)!;
    expect(await s.getTx("R1")).toEqual(winner);
    expect(await s.transitionTx("R1", ["draft"], { status: "sending" })).toBeUndefined();
    expect((await s.transitionTx("R1", ["sending", "unknown"], { status: "pending" }))?.status).toBe("pending");
  });

  it.skipIf(skip || name !== "PgStore")("transitionTx: two processes on one database racing the same draft: one wins", async () => {
    const p = await place();
    const clock = new ManualClock();
    const [a, b] = await Promise.all([p.open({ clock }), p.open({ clock })]);
    for (let i = 0; i < 20; i++) await a.createTx(tx(`R${i}`));
    for (let i = 0; i < 20; i++) {
      const both = await Promise.all([
        a.transitionTx(`R${i}`, ["draft"], { status: "sending", message: "a" }),
        b.transitionTx(`R${i}`, ["draft"], { status: "sending", message: "b" }),
      ]);
      expect(both.filter((r) => r !== undefined)).toHaveLength(1);
      expect((await b.getTx(`R${i}`))?.message).toBe(both.find((r) => r !== undefined)!.message);
    }
    // Plain updates from both processes are not lost either (compare-and-set, re-read on a lost race).
    await a.updateChat(1, { lang: "id" });
    await Promise.all([a.updateChat(1, { shopName: "A" }), b.updateChat(1, { shopFooter: "B" })]);
    expect(await a.getChat(1)).toMatchObject({ lang: "id", shopName: "A", shopFooter: "B" });
  });

  it.skipIf(skip)("transitionTx with a guard: applies only while the guard holds on the current record", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createTx(tx("R1", 1, { message: "as read" }));
    const seen: (string | undefined)[] = [];
    const stillAsRead = (c: { message?: string }) => (seen.push(c.message), c.message === "as read");
    expect((await s.transitionTx("R1", ["draft"], { message: "mine" }, stillAsRead))?.message).toBe("mine");
    // Same status, but the record changed since it was read: refused, nothing written.
    expect(await s.transitionTx("R1", ["draft"], { message: "late" }, stillAsRead)).toBeUndefined();
    expect((await s.getTx("R1"))?.message).toBe("mine");
    expect(seen).toEqual(["as read", "mine"]);
    // The guard never rescues a status that does not match.
    expect(await s.transitionTx("R1", ["sending"], { message: "x" }, () => true)).toBeUndefined();
  });

  it.skipIf(skip)("transitionTx with a guard: of two racing claims of a record as read, exactly one wins", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createTx(tx("R1"));
    const unclaimed = (c: { message?: string }) => c.message === undefined;
    const results = await Promise.all([
      s.transitionTx("R1", ["draft"], { message: "a" }, unclaimed),
      s.transitionTx("R1", ["draft"], { message: "b" }, unclaimed),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect((await s.getTx("R1"))?.message).toBe(results.find((r) => r !== undefined)!.message);
  });

  it.skipIf(skip || name !== "PgStore")("transitionTx with a guard: two processes claiming the same record (status unchanged) — one wins", async () => {
    const p = await place();
    const clock = new ManualClock();
    const [a, b] = await Promise.all([p.open({ clock }), p.open({ clock })]);
    for (let i = 0; i < 20; i++) await a.createTx(tx(`R${i}`, 1, { status: "pending" }));
    const unclaimed = (c: { message?: string }) => c.message === undefined;
    for (let i = 0; i < 20; i++) {
      // Both keep the status: only the guard (re-checked after a lost version race) tells them apart.
      const both = await Promise.all([
        a.transitionTx(`R${i}`, ["pending"], { message: "a" }, unclaimed),
        b.transitionTx(`R${i}`, ["pending"], { message: "b" }, unclaimed),
      ]);
      expect(both.filter((r) => r !== undefined)).toHaveLength(1);
      expect((await b.getTx(`R${i}`))?.message).toBe(both.find((r) => r !== undefined)!.message);
    }
  });

  it.skipIf(skip)("history: pages newest first by (createdAt, refId), across months, the same after reopen", async () => {
    const p = await place();
    // Records made 20 days apart from Oct 2025; 'now' is Jan 2026, so the file store archives the old ones.
    const start = Date.UTC(2025, 9, 1);
    const clock = new ManualClock(Date.UTC(2026, 0, 15));
    const s = await p.open({ clock });
    for (let i = 0; i < 6; i++) {
      const at = start + i * 20 * DAY;
      await s.createTx(tx(`R${i}`, 1, { status: "success", createdAt: at, updatedAt: at }));
    }
    await s.createTx(tx("R5b", 1, { status: "success", createdAt: start + 100 * DAY, updatedAt: start + 100 * DAY }));
    await s.createTx(tx("OTHER", 2, { createdAt: start }));
    await s.createTx(tx("NOW", 1, { status: "pending" }));
    const order = ["NOW", "R5b", "R5", "R4", "R3", "R2", "R1", "R0"];
    const check = async (st: Store) => {
      const p1 = await st.listTxByChat(1, { limit: 3 });
      expect(p1.total).toBe(8);
      expect(p1.items.map((t) => t.refId)).toEqual(order.slice(0, 3));
      expect((await st.listTxByChat(1, { offset: 3, limit: 3 })).items.map((t) => t.refId)).toEqual(order.slice(3, 6));
      expect((await st.listTxByChat(1, { offset: 6, limit: 3 })).items.map((t) => t.refId)).toEqual(order.slice(6));
      expect((await st.listTxByChat(1, { offset: 9 })).items).toEqual([]);
      expect((await st.listTxByChat(3)).total).toBe(0);
      expect(await st.txMonths(1)).toEqual(["2026-01", "2025-12", "2025-11", "2025-10"]);
      expect((await st.txsOfMonth(1, "2025-10")).map((t) => t.refId)).toEqual(["R0", "R1"]);
      expect((await st.findTx(1, "R0"))?.refId).toBe("R0");
    };
    await check(s);
    await s.close();
    await check(await p.open({ clock }));
  });

  it.skipIf(skip)("months are WIB: 17:30 UTC on the last day is the next month", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createTx(tx("LATE", 1, { createdAt: Date.UTC(2026, 0, 31, 17, 30) }));
    await s.createTx(tx("EARLY", 1, { createdAt: Date.UTC(2026, 0, 31, 16, 59) }));
    expect(await s.txMonths(1)).toEqual(["2026-02", "2026-01"]);
    expect((await s.txsOfMonth(1, "2026-02")).map((t) => t.refId)).toEqual(["LATE"]);
    expect((await s.txsOfMonth(1, "2026-01")).map((t) => t.refId)).toEqual(["EARLY"]);
    expect(await s.txsOfMonth(1, "2025-12")).toEqual([]);
  });

  it.skipIf(skip)("findTx/findHotTx: our refId, then the provider's id, within the chat only", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createTx(tx("R1", 1, { upstreamId: "U1" }));
    await s.createTx(tx("R2", 2, { upstreamId: "U2" }));
    for (const find of [s.findTx.bind(s), s.findHotTx.bind(s)]) {
      expect((await find(1, "R1"))?.refId).toBe("R1");
      expect((await find(1, "U1"))?.refId).toBe("R1");
      expect(await find(1, "R2")).toBeUndefined();
      expect(await find(1, "U2")).toBeUndefined();
      expect(await find(2, "U1")).toBeUndefined();
    }
    await s.updateTx("R1", { upstreamId: "U1b" });
    expect((await s.findTx(1, "U1b"))?.refId).toBe("R1");
    expect(await s.findTx(1, "U1")).toBeUndefined();
  });

  it.skipIf(skip)("findHotTx: open ones however old, final ones changed within a week; findTx finds all", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const s = await (await place()).open({ clock });
    await s.createTx(tx("OLDOPEN", 1, { status: "pending", upstreamId: "U-OPEN" }));
    await s.createTx(tx("OLDDONE", 1, { status: "success", upstreamId: "U-DONE" }));
    await clock.advance(6 * DAY);
    await s.createTx(tx("RECENT", 1, { status: "failed" }));
    await clock.advance(2 * DAY);
    await s.flush();
    expect((await s.findHotTx(1, "OLDOPEN"))?.refId).toBe("OLDOPEN");
    expect((await s.findHotTx(1, "U-OPEN"))?.refId).toBe("OLDOPEN");
    expect((await s.findHotTx(1, "RECENT"))?.refId).toBe("RECENT");
    // Final and unchanged for eight days: history, found by findTx only.
    expect(await s.findHotTx(1, "OLDDONE")).toBeUndefined();
    expect(await s.findHotTx(1, "U-DONE")).toBeUndefined();
    expect((await s.findTx(1, "OLDDONE"))?.refId).toBe("OLDDONE");
    expect((await s.findTx(1, "U-DONE"))?.refId).toBe("OLDDONE");
  });

  it.skipIf(skip)("stats().openTxs is live: it follows changes without an openTxs() read", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    expect(s.stats().openTxs).toBe(0);
    await s.createTx(tx("D"));
    await s.createTx(tx("P", 1, { status: "pending" }));
    expect(s.stats().openTxs).toBe(1);
    await s.transitionTx("D", ["draft"], { status: "sending" });
    expect(s.stats().openTxs).toBe(2);
    await s.updateTx("P", { status: "success" });
    await s.updateTx("D", { message: "still sending" });
    expect(s.stats().openTxs).toBe(1);
  });

  it.skipIf(skip || name !== "PgStore")("stats().openTxs on a second process: counted at open, then follows the other's changes", async () => {
    const p = await place();
    const clock = new ManualClock();
    const a = await p.open({ clock });
    await a.createTx(tx("P1", 1, { status: "pending" }));
    await a.createTx(tx("P2", 1, { status: "pending" }));
    // A standby that never reads openTxs() still reports what is pending (its /healthz).
    const b = await p.open({ clock });
    expect(b.stats().openTxs).toBe(2);
    await a.updateTx("P1", { status: "success" });
    await vi.waitFor(() => expect(b.stats().openTxs).toBe(1), { timeout: 5_000, interval: 20 });
  });

  it.skipIf(skip)("a stored record changed outside into one that does not pass the schema is refused on read, never handed out", async () => {
    const p = await place();
    const clock = new ManualClock();
    const s = await p.open({ clock });
    await s.createTx(tx("OK1"));
    await s.createTx(tx("BAD", 1, { status: "pending" }));
    await s.close();
    await p.damageTx("BAD");
    // The file store reads everything at open, so it refuses to open; PostgreSQL refuses the read.
    const read = async () => {
      const again = await p.open({ clock });
      return [await again.getTx("BAD"), await again.openTxs()];
    };
    const err = await read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect(String((err as Error).message)).toMatch(/BAD|tx-/);
  });

  it.skipIf(skip)("openTxs: exactly the open statuses; stats counts them", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createTx(tx("D"));
    await s.createTx(tx("P", 1, { status: "pending" }));
    await s.createTx(tx("U", 2, { status: "unknown" }));
    await s.createTx(tx("S", 1, { status: "success" }));
    expect((await s.openTxs()).map((t) => t.refId).sort()).toEqual(["P", "U"]);
    await s.transitionTx("D", ["draft"], { status: "sending" });
    await s.updateTx("P", { status: "success" });
    expect((await s.openTxs()).map((t) => t.refId).sort()).toEqual(["D", "U"]);
    expect(s.stats()).toMatchObject({ kind: name === "PgStore" ? "postgres" : "file", openTxs: 2 });
  });

  it.skipIf(skip)("meta: set, get (frozen), replace, delete; survives reopen", async () => {
    const p = await place();
    const clock = new ManualClock();
    const s = await p.open({ clock });
    await s.setMeta("broadcast", { id: "b1", sent: 3, chats: [1, 2] });
    await s.setMeta("conv:1", { step: "amount" });
    const v = await s.getMeta<{ sent: number }>("broadcast");
    expect(v).toEqual({ id: "b1", sent: 3, chats: [1, 2] });
    expect(Object.isFrozen(v)).toBe(true);
    await s.setMeta("broadcast", { id: "b1", sent: 4 });
    await s.setMeta("conv:1", undefined);
    await expect(s.setMeta("bad", { at: new Date() })).rejects.toBeInstanceOf(TypeError);
    await s.close();
    const again = await p.open({ clock });
    expect(await again.getMeta("broadcast")).toEqual({ id: "b1", sent: 4 });
    expect(await again.getMeta("conv:1")).toBeUndefined();
  });

  it.skipIf(skip)("flows: per chat, compare-and-set on a version that only grows; frozen; survives reopen", async () => {
    const p = await place();
    const clock = new ManualClock();
    const s = await p.open({ clock });
    expect(await s.getFlow(1)).toEqual({ state: undefined, version: 0 });
    expect(await s.setFlow(1, { buy: [{ step: 1 }] }, 0)).toBe(true);
    expect(await s.setFlow(2, { pay: [] }, 0)).toBe(true);
    const one = await s.getFlow(1);
    expect(one).toEqual({ state: { buy: [{ step: 1 }] }, version: 1 });
    expect(Object.isFrozen(one.state)).toBe(true);
    // A writer that read version 0 lost: nothing written.
    expect(await s.setFlow(1, { buy: [{ step: 9 }] }, 0)).toBe(false);
    expect(await s.setFlow(1, { buy: [{ step: 2 }] }, 1)).toBe(true);
    // The flow ends: the state goes, the version stays, so a writer from before cannot come back.
    expect(await s.setFlow(1, undefined, 2)).toBe(true);
    expect(await s.getFlow(1)).toEqual({ state: undefined, version: 3 });
    expect(await s.setFlow(1, { buy: [{ step: 1 }] }, 0)).toBe(false);
    expect(await s.setFlow(1, { buy: [{ step: 2 }] }, 2)).toBe(false);
    await expect(s.setFlow(3, { bad: new Date() } as never, 0)).rejects.toBeInstanceOf(TypeError);
    await s.close();
    const again = await p.open({ clock });
    expect(await again.getFlow(1)).toEqual({ state: undefined, version: 3 });
    expect(await again.getFlow(2)).toEqual({ state: { pay: [] }, version: 1 });
    await again.close();
    await expect(again.setFlow(2, undefined, 1)).rejects.toBeInstanceOf(StoreClosedError);
  });

  it.skipIf(skip)("flows: of two writers that read the same version, exactly one saves (on two processes too)", async () => {
    const p = await place();
    const clock = new ManualClock();
    const a = await p.open({ clock });
    const b = name === "PgStore" ? await p.open({ clock }) : a;
    for (let chat = 1; chat <= 10; chat++) {
      const both = await Promise.all([a.setFlow(chat, { by: ["a"] }, 0), b.setFlow(chat, { by: ["b"] }, 0)]);
      expect(both.filter(Boolean)).toHaveLength(1);
      expect((await b.getFlow(chat)).state).toEqual({ by: [both[0] ? "a" : "b"] });
    }
  });

  it.skipIf(skip)("flows an older version kept in meta (conv:<chat>) move to the flow storage at open", async () => {
    const p = await place();
    const clock = new ManualClock();
    const s = await p.open({ clock });
    await s.setMeta("conv:5", { version: [0, 2], state: { buy: [] } });
    await s.setMeta("conv:-1001", { version: [0, 2], state: {} });
    await s.setMeta("conversation", { kept: true });
    await s.close();
    const again = await p.open({ clock });
    expect(await again.getFlow(5)).toEqual({ state: { version: [0, 2], state: { buy: [] } }, version: 1 });
    expect((await again.getFlow(-1001)).version).toBe(1);
    expect(await again.getMeta("conv:5")).toBeUndefined();
    expect(await again.getMeta("conversation")).toEqual({ kept: true });
    expect(await again.setFlow(5, undefined, 1)).toBe(true);
  });

  it.skipIf(skip)("a closed store rejects changes with StoreClosedError", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createTx(tx("R1"));
    await s.close();
    await expect(s.updateChat(1, { lang: "id" })).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.createTx(tx("R2"))).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.updateTx("R1", { status: "sending" })).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.transitionTx("R1", ["draft"], { status: "sending" })).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.setApiKey(1, RAW_KEY)).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.setMeta("k", 1)).rejects.toBeInstanceOf(StoreClosedError);
  });

  it.skipIf(skip)("a closed store rejects document and log changes with StoreClosedError", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5 } });
    await s.close();
    await expect(s.createDoc(OrderKind, { id: "O2", owner: 1, state: "draft", value: { amount: 5 } })).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.updateDoc(OrderKind, "O1", { version: 1 }, { state: "paid" })).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.appendLog(AuditKind, 1, { action: "late" })).rejects.toBeInstanceOf(StoreClosedError);
  });
});

// ---- documents and logs: kinds are declared outside the store, with a zod (mini) schema ----------

const OrderSchema = z.object({ amount: z.int().check(z.positive()), note: z.optional(z.string()) });
type Order = z.infer<typeof OrderSchema>;
const OrderKind: DocKind<Order> = { name: "test_order", schema: OrderSchema };
/** Another kind: its ids and log sequences are its own. */
const InviteKind: DocKind<{ role: string }> = { name: "test_invite", schema: z.object({ role: z.string() }) };
const AuditSchema = z.object({ action: z.string() });
const AuditKind: DocKind<z.infer<typeof AuditSchema>> = { name: "test_audit", schema: AuditSchema };

describe.each(stores)("Store contract, documents and logs: $name", ({ place, skip, name }) => {
  it.skipIf(skip)("createDoc: version 1, stamped by the clock, frozen; getDoc reads it; a second create of the id is refused", async () => {
    const clock = new ManualClock(1_000);
    const s = await (await place()).open({ clock });
    const doc = await s.createDoc(OrderKind, { id: "O1", owner: -1001, state: "draft", value: { amount: 5_000, note: "é 🙂 \u0000" } });
    expect(doc).toEqual({ kind: "test_order", id: "O1", owner: -1001, state: "draft", version: 1, createdAt: 1_000, updatedAt: 1_000, value: { amount: 5_000, note: "é 🙂 \u0000" } });
    expect(Object.isFrozen(doc)).toBe(true);
    expect(Object.isFrozen(doc.value)).toBe(true);
    expect(await s.getDoc(OrderKind, "O1")).toEqual(doc);
    expect(await s.getDoc(OrderKind, "O2")).toBeUndefined();
    await clock.advance(5);
    const dup = await s.createDoc(OrderKind, { id: "O1", owner: 7, state: "paid", value: { amount: 1 } }).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(DuplicateDocError);
    expect(dup).toMatchObject({ kind: "test_order", id: "O1" });
    expect(await s.getDoc(OrderKind, "O1")).toEqual(doc);
    // The same id in another kind is another document.
    expect((await s.createDoc(InviteKind, { id: "O1", owner: 7, state: "active", value: { role: "cashier" } })).createdAt).toBe(1_005);
    expect(await s.getDoc(InviteKind, "O1")).toMatchObject({ kind: "test_invite", value: { role: "cashier" } });
  });

  it.skipIf(skip)("writes that do not pass the kind's schema (or the frame) are refused with TypeError and change nothing", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(TypeError);
    await refused(s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: -5 } }));
    await refused(s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5, when: new Date() } as never }));
    await refused(s.createDoc(OrderKind, { id: "", owner: 1, state: "draft", value: { amount: 5 } }));
    await refused(s.createDoc(OrderKind, { id: "x".repeat(101), owner: 1, state: "draft", value: { amount: 5 } }));
    await refused(s.createDoc(OrderKind, { id: "O1", owner: 1.5, state: "draft", value: { amount: 5 } }));
    await refused(s.createDoc(OrderKind, { id: "O1", owner: 1, state: "", value: { amount: 5 } }));
    await refused(s.createDoc({ ...OrderKind, name: "Bad-Name" }, { id: "O1", owner: 1, state: "draft", value: { amount: 5 } }));
    // A kind whose schema's output is not JSON is refused at write, not when read back.
    const Dated: DocKind<{ at: Date }> = { name: "test_dated", schema: z.object({ at: z.pipe(z.number(), z.transform((n) => new Date(n))) }) };
    await refused(s.createDoc(Dated, { id: "D1", owner: 1, state: "draft", value: { at: 5 } as never }));
    expect(await s.getDoc(Dated, "D1")).toBeUndefined();
    expect(await s.getDoc(OrderKind, "O1")).toBeUndefined();
    expect(await s.listDocs(OrderKind, {})).toEqual([]);

    const doc = await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5 } });
    await refused(s.updateDoc(OrderKind, "O1", { version: 1 }, { value: { amount: 0 } }));
    // Nothing to compare with: refused rather than overwriting whatever is there.
    await refused(s.updateDoc(OrderKind, "O1", {}, { state: "paid" }));
    expect(await s.getDoc(OrderKind, "O1")).toEqual(doc);

    await refused(s.appendLog(AuditKind, 1, { action: 3 } as never));
    expect(await s.listLog(AuditKind, 1)).toEqual([]);
  });

  it.skipIf(skip)("updateDoc: compare-and-set by version, by states, by both; the version rises by one; missing ids resolve undefined", async () => {
    const clock = new ManualClock(1_000);
    const s = await (await place()).open({ clock });
    await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "awaiting_payment", value: { amount: 5 } });
    await clock.advance(10);
    const paid = await s.updateDoc(OrderKind, "O1", { states: ["awaiting_payment", "expired"] }, { state: "paid" });
    expect(paid).toEqual({ kind: "test_order", id: "O1", owner: 1, state: "paid", version: 2, createdAt: 1_000, updatedAt: 1_010, value: { amount: 5 } });
    expect(Object.isFrozen(paid)).toBe(true);
    // The state is no longer one of those: nothing written.
    expect(await s.updateDoc(OrderKind, "O1", { states: ["awaiting_payment"] }, { state: "expired" })).toBeUndefined();
    expect(await s.updateDoc(OrderKind, "O1", { states: [] }, { state: "expired" })).toBeUndefined();
    // A stale version loses; the current one wins, the value replaced and the state kept.
    expect(await s.updateDoc(OrderKind, "O1", { version: 1 }, { value: { amount: 6 } })).toBeUndefined();
    await clock.advance(10);
    const noted = await s.updateDoc(OrderKind, "O1", { version: 2 }, { value: { amount: 6, note: "n" } });
    expect(noted).toMatchObject({ state: "paid", version: 3, updatedAt: 1_020, value: { amount: 6, note: "n" } });
    // Both given: both must hold.
    expect(await s.updateDoc(OrderKind, "O1", { version: 3, states: ["draft"] }, { state: "done" })).toBeUndefined();
    expect(await s.updateDoc(OrderKind, "O1", { version: 2, states: ["paid"] }, { state: "done" })).toBeUndefined();
    expect(await s.updateDoc(OrderKind, "O1", { version: 3, states: ["paid"] }, { state: "done", value: { amount: 7 } })).toMatchObject({
      state: "done",
      version: 4,
      value: { amount: 7 },
    });
    expect(await s.getDoc(OrderKind, "O1")).toMatchObject({ state: "done", version: 4, value: { amount: 7 } });
    expect(await s.updateDoc(OrderKind, "NOPE", { version: 1 }, { state: "done" })).toBeUndefined();
    expect(await s.updateDoc(OrderKind, "NOPE", { states: ["draft"] }, { state: "done" })).toBeUndefined();
    expect(await s.getDoc(OrderKind, "NOPE")).toBeUndefined();
  });

  it.skipIf(skip)("updateDoc: of two racing updates from the same state or version, exactly one wins (two processes on PostgreSQL)", async () => {
    const p = await place();
    const clock = new ManualClock();
    const a = await p.open({ clock });
    const b = name === "PgStore" ? await p.open({ clock }) : a;
    for (let i = 0; i < 10; i++) await a.createDoc(OrderKind, { id: `O${i}`, owner: 1, state: "awaiting_payment", value: { amount: 5 } });
    for (let i = 0; i < 10; i++) {
      const byState = await Promise.all([
        a.updateDoc(OrderKind, `O${i}`, { states: ["awaiting_payment"] }, { state: "paid", value: { amount: 5, note: "a" } }),
        b.updateDoc(OrderKind, `O${i}`, { states: ["awaiting_payment"] }, { state: "expired", value: { amount: 5, note: "b" } }),
      ]);
      expect(byState.filter((r) => r !== undefined)).toHaveLength(1);
      const won = byState.find((r) => r !== undefined)!;
      expect(await b.getDoc(OrderKind, `O${i}`)).toEqual(won);
      // The state stays: only the version tells two writers that read version 2 apart.
      const byVersion = await Promise.all([
        a.updateDoc(OrderKind, `O${i}`, { version: 2 }, { value: { amount: 6, note: "a" } }),
        b.updateDoc(OrderKind, `O${i}`, { version: 2 }, { value: { amount: 6, note: "b" } }),
      ]);
      expect(byVersion.filter((r) => r !== undefined)).toHaveLength(1);
      expect((await a.getDoc(OrderKind, `O${i}`))?.value.note).toBe(byVersion.find((r) => r !== undefined)!.value.note);
    }
  });

  it.skipIf(skip)("listDocs: oldest first (createdAt, then id), by owner, states, createdSince, limit", async () => {
    const clock = new ManualClock(1_000);
    const s = await (await place()).open({ clock });
    const make = (id: string, owner: number, state: string) => s.createDoc(OrderKind, { id, owner, state, value: { amount: 1 } });
    // Made in this order; B and A share a time, so the id orders them.
    await make("C", 1, "paid");
    await clock.advance(10);
    await make("b", 2, "draft");
    await make("B", 1, "draft");
    await make("A", 1, "done");
    await clock.advance(10);
    await make("D", 1, "paid");
    await s.createDoc(InviteKind, { id: "X", owner: 1, state: "paid", value: { role: "r" } });
    const ids = async (q: Parameters<Store["listDocs"]>[1]) => (await s.listDocs(OrderKind, q)).map((d) => d.id);
    expect(await ids({})).toEqual(["C", "A", "B", "b", "D"]);
    expect(await ids({ owner: 1 })).toEqual(["C", "A", "B", "D"]);
    expect(await ids({ owner: 2 })).toEqual(["b"]);
    expect(await ids({ owner: 3 })).toEqual([]);
    expect(await ids({ states: ["paid", "done"] })).toEqual(["C", "A", "D"]);
    expect(await ids({ states: [] })).toEqual([]);
    expect(await ids({ createdSince: 1_010 })).toEqual(["A", "B", "b", "D"]);
    expect(await ids({ owner: 1, states: ["draft", "paid"], createdSince: 1_010 })).toEqual(["B", "D"]);
    expect(await ids({ owner: 1, limit: 2 })).toEqual(["C", "A"]);
    expect(await ids({ limit: 0 })).toEqual([]);
    // A state change moves a document between filters.
    await s.updateDoc(OrderKind, "B", { states: ["draft"] }, { state: "paid" });
    expect(await ids({ states: ["paid"] })).toEqual(["C", "B", "D"]);
    const [first] = await s.listDocs(OrderKind, { limit: 1 });
    expect(Object.isFrozen(first)).toBe(true);
  });

  it.skipIf(skip)("logs: seq from 1 per (kind, owner), newest first, paged back with beforeSeq; limit 20 by default, at most 500", async () => {
    const clock = new ManualClock(1_000);
    const s = await (await place()).open({ clock });
    for (let i = 1; i <= 25; i++) {
      const e = await s.appendLog(AuditKind, 7, { action: `a${i}` });
      expect(e).toEqual({ seq: i, owner: 7, at: 1_000 + i - 1, entry: { action: `a${i}` } });
      expect(Object.isFrozen(e) && Object.isFrozen(e.entry)).toBe(true);
      await clock.advance(1);
    }
    expect(await s.appendLog(AuditKind, -5, { action: "other owner" })).toMatchObject({ seq: 1, owner: -5 });
    expect(await s.appendLog(InviteKind, 7, { role: "other kind" })).toMatchObject({ seq: 1 });
    const seqs = async (page?: Parameters<Store["listLog"]>[2]) => (await s.listLog(AuditKind, 7, page)).map((e) => e.seq);
    const all = Array.from({ length: 25 }, (_, i) => 25 - i);
    expect(await seqs()).toEqual(all.slice(0, 20));
    expect(await seqs({ limit: 5 })).toEqual([25, 24, 23, 22, 21]);
    expect(await seqs({ beforeSeq: 21, limit: 5 })).toEqual([20, 19, 18, 17, 16]);
    expect(await seqs({ beforeSeq: 3 })).toEqual([2, 1]);
    expect(await seqs({ beforeSeq: 1 })).toEqual([]);
    expect((await s.listLog(AuditKind, 7, { limit: 1 }))[0]).toEqual({ seq: 25, owner: 7, at: 1_024, entry: { action: "a25" } });
    expect(await s.listLog(AuditKind, -5)).toEqual([{ seq: 1, owner: -5, at: 1_025, entry: { action: "other owner" } }]);
    expect(await s.listLog(AuditKind, 8)).toEqual([]);
    for (let i = 26; i <= 501; i++) await s.appendLog(AuditKind, 7, { action: `a${i}` });
    const most = await seqs({ limit: 10_000 });
    expect(most).toHaveLength(500);
    expect(most[0]).toBe(501);
  });

  it.skipIf(skip || name !== "PgStore")("logs: two processes appending to one owner's log get distinct, increasing seqs", async () => {
    const p = await place();
    const clock = new ManualClock();
    const [a, b] = await Promise.all([p.open({ clock }), p.open({ clock })]);
    const made = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).appendLog(AuditKind, 1, { action: `n${i}` })));
    expect(made.map((e) => e.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const listed = await a.listLog(AuditKind, 1, { limit: 100 });
    expect(listed.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(new Set(listed.map((e) => e.entry.action)).size).toBe(20);
  });

  it.skipIf(skip)("logs have no update or delete path: appendLog and listLog are the only log methods", async () => {
    const s = await (await place()).open({ clock: new ManualClock() });
    const methods = new Set<string>();
    for (let o: object | null = s; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
      for (const key of Object.getOwnPropertyNames(o)) if (typeof (s as unknown as Record<string, unknown>)[key] === "function") methods.add(key);
    }
    expect([...methods].filter((m) => /log/i.test(m)).sort()).toEqual(["appendLog", "listLog"]);
    expect([...methods].filter((m) => /doc/i.test(m)).sort()).toEqual(["createDoc", "flushDoc", "getDoc", "listDocs", "updateDoc"]);
  });

  it.skipIf(skip)("documents and logs survive a reopen as they were; seqs go on from the last", async () => {
    const p = await place();
    const clock = new ManualClock(1_000);
    const s = await p.open({ clock });
    await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5, note: "x" } });
    await s.createDoc(OrderKind, { id: "O2", owner: 2, state: "draft", value: { amount: 6 } });
    await clock.advance(10);
    await s.updateDoc(OrderKind, "O1", { version: 1 }, { state: "paid" });
    await s.appendLog(AuditKind, 1, { action: "a" });
    await s.appendLog(AuditKind, 1, { action: "b" });
    await s.appendLog(AuditKind, 2, { action: "c" });
    const docs = await s.listDocs(OrderKind, {});
    const log = await s.listLog(AuditKind, 1);
    await s.flush();
    await s.close();
    const again = await p.open({ clock });
    expect(await again.listDocs(OrderKind, {})).toEqual(docs);
    expect(await again.getDoc(OrderKind, "O1")).toMatchObject({ state: "paid", version: 2, createdAt: 1_000, updatedAt: 1_010 });
    expect(await again.listLog(AuditKind, 1)).toEqual(log);
    expect(await again.appendLog(AuditKind, 1, { action: "d" })).toMatchObject({ seq: 3 });
    expect(await again.updateDoc(OrderKind, "O1", { version: 2 }, { state: "done" })).toMatchObject({ version: 3 });
    await expect(again.createDoc(OrderKind, { id: "O2", owner: 2, state: "draft", value: { amount: 6 } })).rejects.toBeInstanceOf(DuplicateDocError);
    await again.close();
    const third = await p.open({ clock });
    expect((await third.listLog(AuditKind, 1)).map((e) => e.entry.action)).toEqual(["d", "b", "a"]);
    expect(await third.getDoc(OrderKind, "O1")).toMatchObject({ state: "done", version: 3 });
  });

  it.skipIf(skip)("a stored document or log entry changed outside so that it fails its kind's schema is refused on read", async () => {
    const p = await place();
    const clock = new ManualClock();
    const s = await p.open({ clock });
    await s.createDoc(OrderKind, { id: "BAD", owner: 1, state: "draft", value: { amount: 5 } });
    await s.appendLog(AuditKind, 1, { action: "ok" });
    await s.appendLog(AuditKind, 1, { action: "damaged" });
    await s.close();
    await p.damageDoc("test_order", "BAD");
    await p.damageLog("test_audit", 1, 2);
    const again = await p.open({ clock });
    const err = await again.getDoc(OrderKind, "BAD").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect(String((err as Error).message)).toMatch(/test_order/);
    await expect(again.listDocs(OrderKind, {})).rejects.toBeInstanceOf(StoreCorruptError);
    await expect(again.listLog(AuditKind, 1)).rejects.toBeInstanceOf(StoreCorruptError);
    // Nothing is handed out, and a compare-and-set never makes a damaged document look valid.
    await expect(again.updateDoc(OrderKind, "BAD", { version: 1 }, { state: "paid" })).rejects.toBeInstanceOf(StoreCorruptError);
  });
});
