import { afterEach, describe, expect, it } from "vitest";
import { logOwnerOf, MAX_CHANGES_PER_ENTRY, PriceChangeKind, recordPriceList } from "../../src/domain/priceChanges.js";
import { rupiah } from "../../src/render/format.js";
import { accountOf } from "../../src/upstream/cache.js";
import type { PrepaidProduct } from "../../src/upstream/types.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
afterEach(() => w?.close());

const log = (account = accountOf(w.demoKey)) => w.store.listLog(PriceChangeKind, logOwnerOf(account), { limit: 100 });

async function costOf(code: string): Promise<number> {
  const [p] = await w.upstream.prepaidPriceList(w.demoKey, code);
  return p!.price;
}

describe("price changes are compared per fetched list and logged", () => {
  it("a refreshed list logs the costs that moved (product, old, new, when); an unchanged one logs nothing; /harga marks today's moves", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const s10 = await costOf("S10");
    const i10 = await costOf("I10");
    await u.sendCommand("harga", "tsel 10");
    expect(u.lastReply()).not.toContain("⬆️");
    expect(await log()).toEqual([]); // the first list is only remembered

    w.sandbox.setPrice("S10", s10 + 300);
    w.sandbox.setPrice("I10", i10 - 100);
    await w.clock.advance(60_000);
    await u.sendCommand("harga", "refresh");
    const [entry, ...older] = await log();
    expect(older).toEqual([]);
    expect(entry!.at).toBe(w.clock.now());
    expect(entry!.entry).toEqual({
      account: accountOf(w.demoKey),
      changes: [
        { code: "I10", name: "Indosat 10.000", category: "Pulsa", oldCost: i10, newCost: i10 - 100 },
        { code: "S10", name: "Telkomsel 10.000", category: "Pulsa", oldCost: s10, newCost: s10 + 300 },
      ],
    });
    expect(JSON.stringify(entry)).not.toContain(w.demoKey);

    await u.sendCommand("harga", "tsel 10");
    expect(u.lastReply()).toContain(`S10 Telkomsel 10.000: ${rupiah(s10 + 300, "id")} ⬆️`);
    expect(u.lastReply()).toContain(`TSEL-DATA-10GB Telkomsel Data 10 GB / 30 Hari: ${rupiah(await costOf("TSEL-DATA-10GB"), "id")}\n`);
    expect(u.lastReply()).toContain("harga modal berubah hari ini");
    expect(u.buttons()).toContain(`Telkomsel 10.000 · ${rupiah(s10 + 300, "id")} ⬆️`);
    await u.sendCommand("harga", "im3 10");
    expect(u.lastReply()).toContain(`I10 Indosat 10.000: ${rupiah(i10 - 100, "id")} ⬇️`);

    await u.sendCommand("harga", "refresh"); // nothing moved since
    expect(await log()).toHaveLength(1);
  });

  it("the next day, yesterday's moves carry no arrow", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("harga", "tsel 10");
    w.sandbox.setPrice("S10", (await costOf("S10")) + 300);
    await u.sendCommand("harga", "refresh");
    await w.clock.advance(24 * 3_600_000);
    await u.sendCommand("harga", "refresh");
    await u.sendCommand("harga", "tsel 10");
    expect(u.lastReply()).not.toContain("⬆️");
  });

  it("an entry is bounded, and of two processes comparing the same refresh only one logs it", async () => {
    w = await makeWorld();
    const product = (i: number, price: number): PrepaidProduct => ({
      code: `P${i}`, name: `Produk ${i}`, category: "Pulsa", type: "Umum", provider: "X", price, note: "", available: true,
    });
    const before = Array.from({ length: 600 }, (_, i) => product(i, 1000));
    const after = Array.from({ length: 600 }, (_, i) => product(i, 1100));
    await recordPriceList(w.store, "acct", before);
    const [a, b] = await Promise.all([recordPriceList(w.store, "acct", after), recordPriceList(w.store, "acct", after)]);
    expect([a!.length, b!.length].sort()).toEqual([0, 600]);
    const entries = await log("acct");
    expect(entries).toHaveLength(1);
    expect(entries[0]!.entry.changes).toHaveLength(MAX_CHANGES_PER_ENTRY);
    expect(entries[0]!.entry.more).toBe(600 - MAX_CHANGES_PER_ENTRY);
  });
});
