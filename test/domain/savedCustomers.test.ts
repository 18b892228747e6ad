import { describe, expect, it } from "vitest";
import { SavedCustomers, CUSTOMERS_MAX, type CustomerTarget } from "../../src/domain/savedCustomers.js";
import { openStore, tempDir } from "../store/helpers.js";

const NOW = Date.UTC(2026, 0, 10, 5);
const phone = (target: string): CustomerTarget => ({ kind: "phone", target, code: "S10", title: "Telkomsel 10.000", source: "prepaid" });
const account = (target: string, code: string): CustomerTarget => ({ kind: "account", target, code, title: code, source: "transfer" });

describe("saved customers", () => {
  it("are saved durably, listed oldest first, and the same target saved again gets the new name", async () => {
    const dir = await tempDir();
    const customers = new SavedCustomers(await openStore(dir));
    const budi = await customers.save(1, phone("0812"), "Budi", NOW);
    await customers.save(1, phone("0813"), "Ani", NOW + 1);
    const again = await customers.save(1, phone("0812"), "Pak Budi", NOW + 2);
    expect(again).toMatchObject({ ok: true, renamed: "Budi" });
    expect(again.ok && budi.ok && again.customer.id).toBe(budi.ok && budi.customer.id);
    // Read by a second store on the same files: save made it durable.
    const list = await new SavedCustomers(await openStore(dir)).list(1);
    expect(list.map((c) => [c.name, c.target])).toEqual([["Pak Budi", "0812"], ["Ani", "0813"]]);
    expect(await customers.list(2)).toEqual([]);
  });

  it("keep one account number at two banks apart", async () => {
    const customers = new SavedCustomers(await openStore(await tempDir()));
    await customers.save(1, account("123456", "bca"), "Budi BCA", NOW);
    const other = await customers.save(1, account("123456", "bri"), "Budi BRI", NOW);
    expect(other).toMatchObject({ ok: true });
    expect(other.ok && other.renamed).toBeUndefined();
    expect((await customers.list(1)).map((c) => c.name)).toEqual(["Budi BCA", "Budi BRI"]);
  });

  it("refuse a new one when the list is full, but still rename a saved one", async () => {
    const customers = new SavedCustomers(await openStore(await tempDir()));
    for (let i = 0; i < CUSTOMERS_MAX; i++) await customers.save(1, phone(`08${i}`), `C${i}`, NOW);
    expect(await customers.save(1, phone("0899999"), "New", NOW)).toEqual({ ok: false, reason: "full" });
    expect(await customers.save(1, phone("080"), "First", NOW)).toMatchObject({ ok: true, renamed: "C0" });
  });

  it("are renamed and deleted by id; an id no longer saved changes nothing", async () => {
    const customers = new SavedCustomers(await openStore(await tempDir()));
    const saved = await customers.save(1, phone("0812"), "Budi", NOW);
    const id = saved.ok ? saved.customer.id : "";
    expect((await customers.rename(1, id, "Pak Budi"))?.name).toBe("Pak Budi");
    expect((await customers.list(1))[0]?.name).toBe("Pak Budi");
    expect(await customers.rename(1, "nope", "X")).toBeUndefined();
    expect((await customers.remove(1, id))?.name).toBe("Pak Budi");
    expect(await customers.remove(1, id)).toBeUndefined();
    expect(await customers.list(1)).toEqual([]);
  });
});
