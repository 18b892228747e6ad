/** The typed client against the sandbox over real HTTP: every endpoint, happy paths and refusals. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { createSandbox, SANDBOX_CUSTOMERS, type Sandbox } from "../../src/sandbox/index.js";
import { UpstreamClient } from "../../src/upstream/client.js";
import { UpstreamRejected } from "../../src/upstream/errors.js";

let clock: ManualClock;
let sandbox: Sandbox;
let client: UpstreamClient;
const KEY = "CLIENT-TEST-KEY-000111";

beforeAll(async () => {
  clock = new ManualClock();
  sandbox = await createSandbox({ clock, settleMs: 5000, seed: 3 });
  sandbox.addKey(KEY, 1_000_000, "Toko Uji");
  client = new UpstreamClient({ baseUrl: sandbox.url, clock, readRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const rejected = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(UpstreamRejected);

describe("UpstreamClient x sandbox", () => {
  it("profile, and an unknown key refused", async () => {
    const p = await client.getProfile(KEY);
    expect(p).toMatchObject({ name: "Toko Uji", balance: 1_000_000, status: "active" });
    await rejected(client.getProfile("NOT-A-KEY"));
  });

  it("price lists, prepaid and postpaid, whole and by code", async () => {
    const prepaid = await client.prepaidPriceList(KEY);
    expect(prepaid.length).toBeGreaterThanOrEqual(100);
    expect(prepaid.some((p) => !p.available)).toBe(true);
    const one = await client.prepaidPriceList(KEY, prepaid[0]!.code);
    expect(one).toEqual([prepaid[0]]);
    const postpaid = await client.postpaidPriceList(KEY);
    expect(postpaid.map((p) => p.code)).toContain("PPLN");
  });

  it("prepaid create -> pending -> success, reused reff_id and limit_price refused", async () => {
    const product = (await client.prepaidPriceList(KEY)).find((p) => p.available && p.category === "Pulsa")!;
    const before = sandbox.balance(KEY);
    const tx = await client.createTransaction(KEY, { code: product.code, reffId: "R-1", target: "081234567890", limitPrice: product.price });
    expect(tx).toMatchObject({ reffId: "R-1", status: "pending", sn: null, price: product.price });
    expect(sandbox.balance(KEY)).toBe(before - product.price);
    await rejected(client.createTransaction(KEY, { code: product.code, reffId: "R-1", target: "081234567890" }));
    await rejected(client.createTransaction(KEY, { code: product.code, reffId: "R-2", target: "081234567890", limitPrice: product.price - 1 }));
    await clock.advance(6000);
    const done = await client.prepaidStatus(KEY, tx.id);
    expect(done.status).toBe("success");
    expect(done.sn).toBeTruthy();
  });

  it("bill inquiry, payment with the same reff_id, status; unknown customer refused", async () => {
    const bill = await client.billInquiry(KEY, { code: "PPLN", reffId: "B-1", customerNo: SANDBOX_CUSTOMERS.oneSheet });
    expect(bill.total).toBeGreaterThan(bill.adminFee);
    expect(bill.periods.length).toBe(1);
    const paid = await client.billPay(KEY, { code: "PPLN", reffId: "B-1", customerNo: SANDBOX_CUSTOMERS.oneSheet });
    expect(paid.reffId).toBe("B-1");
    await clock.advance(6000);
    expect((await client.postpaidStatus(KEY, paid.id!)).status).toBe("success");
    await rejected(client.billInquiry(KEY, { code: "PPLN", reffId: "B-2", customerNo: SANDBOX_CUSTOMERS.notFound }));
  });

  it("banks, account check, transfer with fee, status", async () => {
    const banks = await client.bankList(KEY);
    expect(banks.map((b) => b.code)).toContain("bca");
    expect((await client.checkAccount(KEY, { bankCode: "bca", accountNumber: "1234567890" })).status).toBe("valid");
    expect((await client.checkAccount(KEY, { bankCode: "bca", accountNumber: "1234567999" })).status).toBe("invalid");
    const t = await client.createTransfer(KEY, { refId: "T-1", bankCode: "bca", accountNumber: "1234567890", holderName: "BUDI", amount: 50000 });
    expect(t).toMatchObject({ reffId: "T-1", amount: 50000, status: "pending" });
    expect(t.total).toBe(t.amount + t.fee);
    await clock.advance(6000);
    expect((await client.transferStatus(KEY, t.id)).status).toBe("success");
  });

  it("deposit methods, create, status, cancel, instant release once", async () => {
    const methods = await client.depositMethods(KEY);
    expect(methods.some((m) => !m.active)).toBe(true);
    const q = await client.createDeposit(KEY, { reffId: "D-1", amount: 50000, type: "ewallet", method: "qris" });
    expect(q.qrString).toMatch(/^000201010212/);
    expect((await client.cancelDeposit(KEY, q.id)).status).toBe("cancel");

    const d = await client.createDeposit(KEY, { reffId: "D-2", amount: 50000, type: "ewallet", method: "qris" });
    sandbox.payDeposit(d.id);
    expect((await client.depositStatus(KEY, d.id)).status).toBe("processing");
    const preview = await client.instantDeposit(KEY, { id: d.id, action: false });
    expect(preview.handlingFee).toBeGreaterThan(0);
    const released = await client.instantDeposit(KEY, { id: d.id, action: true });
    expect(released.status).toBe("success");
    await rejected(client.instantDeposit(KEY, { id: d.id, action: true }));
    await rejected(client.cancelDeposit(KEY, d.id));
  });
});
