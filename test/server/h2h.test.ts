/**
 * The H2H API over HTTP (docs/h2h.md), black box: Rina's bot on 127.0.0.1, Andi her Gold downline with
 * an H2H key, and the bot's own provider client pointed at `<bot>/h2h`, so every answer must decode
 * with the client's schemas. What Rina's provider (the sandbox) sees is what was bought.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UpstreamClient } from "../../src/upstream/client.js";
import { UpstreamRejected } from "../../src/upstream/errors.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { H2H_IN_FLIGHT } from "../../src/server/h2h/limits.js";
import type { World } from "../support/world.js";
import { ANDI, fundWallet, GOLD_MARKUP, h2hWorld, type H2hWorld, RINA } from "../h2h/support.js";

const CREATE = "/transaksi/create";
const PAY = "/transaksi/tagihan/bayar";

let h: H2hWorld;
let w: World;
let url: string;
let key: string;
let client: UpstreamClient;

async function rejection(p: Promise<unknown>): Promise<UpstreamRejected> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamRejected);
  return err as UpstreamRejected;
}

async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${url}/h2h${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

async function costOf(code: string): Promise<number> {
  return (await w.upstream.prepaidPriceList(w.demoKey, code)).find((p) => p.code === code)!.price;
}

const fund = (amount: number, ref?: string) => fundWallet(w, ANDI, amount, ref);

beforeEach(async () => {
  h = await h2hWorld();
  ({ w, url, key, client } = h);
});
afterEach(async () => {
  await h.close();
});

describe("H2H: the provider's API for a downline's own system", () => {
  it("answers the profile and price lists in the provider's shapes, at the downline's price and wallet", async () => {
    await fund(50_000);
    const profile = await client.getProfile(key);
    expect(profile).toMatchObject({ name: "Andi", balance: 50_000, status: "active" });
    const cost = await costOf("S10");
    const list = await client.prepaidPriceList(key);
    expect(list.find((p) => p.code === "S10")?.price).toBe(cost + GOLD_MARKUP);
    expect((await client.prepaidPriceList(key, "S10")).map((p) => p.code)).toEqual(["S10"]);
    const bills = await client.postpaidPriceList(key);
    expect(bills.find((b) => b.code === "PPLN")).toMatchObject({ commission: 0 });
    expect((await client.bankList(key)).length).toBeGreaterThan(0);
    // Deposits over H2H are QRIS only: the one method listed.
    expect((await client.depositMethods(key)).map((m) => m.method.toLowerCase())).toEqual(["qris"]);
  });

  it("refuses a wrong or retired key with 401, a foreign IP with 403 naming it, a suspended downline at once", async () => {
    expect((await rejection(client.getProfile("not-the-key-at-all-0123456789"))).providerCode).toBe(401);
    expect((await post("/get_profile", "api_key=nope")).status).toBe(401);

    await w.app.h2hAccess.setIps(ANDI, ["203.0.113.9"]);
    const foreign = await rejection(client.getProfile(key));
    expect(foreign.providerCode).toBe(403);
    expect(foreign.providerMessage).toContain("IP 127.0.0.1");
    await w.app.h2hAccess.setIps(ANDI, ["127.0.0.1"]);

    await w.app.deps.network.change(RINA, ANDI, { suspended: true });
    expect((await rejection(client.getProfile(key))).providerCode).toBe(403);
    await w.app.deps.network.change(RINA, ANDI, { suspended: false });
    expect((await client.getProfile(key)).name).toBe("Andi");

    // Off, and a new key: the old one stops at once.
    const again = await w.app.h2hAccess.newKey(ANDI, w.clock.now());
    if (again === "off") throw new Error("off");
    expect((await rejection(client.getProfile(key))).providerCode).toBe(401);
    expect((await client.getProfile(again.key)).name).toBe("Andi");
    await w.app.h2hAccess.enable(RINA, ANDI, false);
    expect((await rejection(client.getProfile(again.key))).providerCode).toBe(401);
    // Removed from the network: the key stops even if access were left on.
    await w.app.h2hAccess.enable(RINA, ANDI, true);
    expect(await w.app.deps.network.remove(RINA, ANDI)).toBe("removed");
    expect((await rejection(client.getProfile(again.key))).providerCode).toBe(401);
  });

  it("buys once per reff_id, also 10 at once, from the wallet at the downline's price with the owner's key", async () => {
    await fund(100_000);
    const cost = await costOf("S10");
    const price = cost + GOLD_MARKUP;
    const first = await client.createTransaction(key, { code: "S10", reffId: "ANDI-1", target: "081234567890" });
    expect(first).toMatchObject({ reffId: "ANDI-1", code: "S10", price, status: "pending" });
    const again = await client.createTransaction(key, { code: "S10", reffId: "ANDI-1", target: "081234567890" });
    expect(again.id).toBe(first.id);
    const calls = w.sandbox.calls(CREATE);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ api_key: w.demoKey, limit_price: String(cost) });
    expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: 100_000, held: price, available: 100_000 - price });

    // 10 at once: more than a key may have in flight (H2H_IN_FLIGHT), so some may be told to slow down
    // (429, retry later); every one answered names the same transaction, and one purchase is made.
    const burst = await Promise.allSettled(Array.from({ length: 10 }, () => client.createTransaction(key, { code: "S10", reffId: "ANDI-2", target: "081234567891" })));
    const answered = burst.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const refused = burst.flatMap((r) => (r.status === "rejected" ? [r.reason as UpstreamRejected] : []));
    expect(answered.length).toBeGreaterThanOrEqual(H2H_IN_FLIGHT);
    expect(new Set(answered.map((t) => t.id)).size).toBe(1);
    for (const r of refused) expect(r.providerCode).toBe(429);
    expect(w.sandbox.calls(CREATE)).toHaveLength(2);
    expect((await w.app.deps.wallets.view(ANDI)).held).toBe(2 * price);

    // Status by our id and by the downline's reff_id.
    expect((await client.prepaidStatus(key, first.id)).reffId).toBe("ANDI-1");
    expect((await client.prepaidStatus(key, "ANDI-2")).id).toBe(answered[0]!.id);
    expect((await rejection(client.prepaidStatus(key, "NOPE"))).providerCode).toBe(404);
  });

  it("refuses a limit_price below the downline's price, a wallet too low, and buys nothing", async () => {
    const cost = await costOf("S10");
    const price = cost + GOLD_MARKUP;
    await fund(price - 1);
    const limited = await rejection(client.createTransaction(key, { code: "S10", reffId: "L1", target: "081234567890", limitPrice: price - 1 }));
    expect(limited.providerCode).toBe(422);
    const low = await rejection(client.createTransaction(key, { code: "S10", reffId: "L2", target: "081234567890" }));
    expect(low.providerCode).toBe(402);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect(await w.app.deps.wallets.view(ANDI)).toEqual({ balance: price - 1, held: 0, available: price - 1 });
    // The same reff_id after a top-up buys (nothing was saved for it).
    await fund(10_000, "F2");
    expect(await client.createTransaction(key, { code: "S10", reffId: "L2", target: "081234567890", limitPrice: price })).toMatchObject({ price });
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
  });

  it("inquires a bill, then pays it once from the wallet", async () => {
    await fund(1_000_000);
    const bill = await client.billInquiry(key, { code: "PPLN", reffId: "B1", customerNo: SANDBOX_CUSTOMERS.twoSheets });
    expect(bill).toMatchObject({ reffId: "B1", code: "PPLN" });
    expect(bill.periods).toHaveLength(2);
    const paid = await client.billPay(key, { code: "PPLN", reffId: "B1", customerNo: SANDBOX_CUSTOMERS.twoSheets });
    const twice = await client.billPay(key, { code: "PPLN", reffId: "B1", customerNo: SANDBOX_CUSTOMERS.twoSheets });
    expect(twice.id).toBe(paid.id);
    expect(paid.price).toBe(bill.price);
    expect(w.sandbox.calls(PAY)).toHaveLength(1);
    expect((await w.app.deps.wallets.view(ANDI)).held).toBe(bill.price);
    expect((await client.postpaidStatus(key, "B1")).id).toBe(paid.id);
    // A payment without its inquiry is refused.
    expect((await rejection(client.billPay(key, { code: "PPLN", reffId: "B2", customerNo: SANDBOX_CUSTOMERS.oneSheet }))).providerCode).toBe(404);
  });
});
