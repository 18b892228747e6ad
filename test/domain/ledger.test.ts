import { describe, expect, it } from "vitest";
import { Ledger } from "../../src/domain/ledger.js";
import type { NewTx } from "../../src/store/index.js";
import { openStore, tempDir } from "../store/helpers.js";

const DAY = 24 * 60 * 60 * 1000;
const JAN_10 = Date.UTC(2026, 0, 10, 5); // 12.00 WIB

function draft(refId: string, createdAt: number, chatId = 1): NewTx {
  return { refId, chatId, kind: "prepaid", status: "draft", amount: 10_000, code: "S10", target: "0812", createdAt, updatedAt: createdAt };
}

describe("the ledger", () => {
  it("keeps a saved draft across a restart: its reference exists before any provider call", async () => {
    const dir = await tempDir();
    const first = await openStore(dir);
    await new Ledger(first).saveDraft(draft("R1", JAN_10));
    // No close: what saveDraft made durable is on disk even if the process dies now.
    const reader = await openStore(dir);
    expect((await new Ledger(reader).get("R1"))?.status).toBe("draft");
  });

  it("cancels a draft once; a record already sending is not cancelled", async () => {
    const ledger = new Ledger(await openStore(await tempDir()));
    await ledger.saveDraft(draft("R1", JAN_10));
    await ledger.saveDraft(draft("R2", JAN_10));
    expect((await ledger.cancelDraft("R1", "replaced"))?.message).toBe("replaced");
    expect(await ledger.cancelDraft("R1")).toBeUndefined();
    expect(await ledger.transition("R2", ["draft"], { status: "sending" })).toBeDefined();
    expect(await ledger.cancelDraft("R2")).toBeUndefined();
    expect((await ledger.get("R2"))?.status).toBe("sending");
  });

  it("applies a transition only when its guard still holds", async () => {
    const ledger = new Ledger(await openStore(await tempDir()));
    await ledger.saveDraft(draft("R1", JAN_10));
    const unmarked = (c: { retriedAs?: string | undefined }) => c.retriedAs === undefined;
    expect((await ledger.transition("R1", ["draft"], { retriedAs: "R9" }, unmarked))?.retriedAs).toBe("R9");
    expect(await ledger.transition("R1", ["draft"], { retriedAs: "R10" }, unmarked)).toBeUndefined();
    expect((await ledger.get("R1"))?.retriedAs).toBe("R9");
  });

  it("lists a chat's records newest first, pages them, and reads a month oldest first", async () => {
    const ledger = new Ledger(await openStore(await tempDir()));
    for (let i = 0; i < 5; i++) await ledger.saveDraft(draft(`R${i}`, JAN_10 + i * DAY));
    await ledger.saveDraft(draft("OTHER", JAN_10, 2));
    await ledger.saveDraft(draft("FEB", Date.UTC(2026, 1, 3, 5)));
    expect((await ledger.all(1)).map((t) => t.refId)).toEqual(["FEB", "R4", "R3", "R2", "R1", "R0"]);
    expect((await ledger.recent(1, 2)).map((t) => t.refId)).toEqual(["FEB", "R4"]);
    const page = await ledger.page(1, 2, 2);
    expect(page.total).toBe(6);
    expect(page.items.map((t) => t.refId)).toEqual(["R3", "R2"]);
    expect((await ledger.month(1, "2026-01")).map((t) => t.refId)).toEqual(["R0", "R1", "R2", "R3", "R4"]);
    expect(await ledger.months(1)).toEqual(["2026-02", "2026-01"]);
    expect((await ledger.find(1, "R3"))?.refId).toBe("R3");
    expect(await ledger.find(2, "R3")).toBeUndefined(); // another chat's reference is not found
  });
});
