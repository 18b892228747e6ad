import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { startSandbox } from "./harness.js";

let env: Awaited<ReturnType<typeof startSandbox>>;
afterEach(() => env?.sb.close());

const HOUR = 3_600_000;

// settle(id, outcome) lets a test or benchmark choose the moment (and outcome) of each change.
describe("sandbox settle control", () => {
  it("resolves a pending sale now with the chosen outcome, overriding the rule; a failure refunds once", async () => {
    env = await startSandbox({ settleMs: 10 * HOUR });
    const { sb, call, clock } = env;
    const start = sb.balance(sb.demoKey);

    // A target whose rule says success, settled as failed: refunded, with the failure remark.
    const a = await call("/transaksi/create", { code: "S10", reff_id: "SET-A", target: "081234567890" });
    const price = Number(a.data.price);
    expect(sb.balance(sb.demoKey)).toBe(start - price);
    expect(sb.settle(a.data.id, "failed")).toBe(true);
    const failed = await call("/transaksi/status", { id: a.data.id, type: "prabayar" });
    expect(failed.data).toMatchObject({ status: "failed", sn: expect.stringContaining("Saldo dikembalikan") });
    expect(sb.balance(sb.demoKey)).toBe(start);

    // A target whose rule says failed, settled as success by its reference: a serial, no refund.
    const b = await call("/transaksi/create", { code: "S10", reff_id: "SET-B", target: "081234560000" });
    expect(sb.settle("SET-B", "success")).toBe(true);
    const ok = await call("/transaksi/status", { id: b.data.id, type: "prabayar" });
    expect(ok.data.status).toBe("success");
    expect(ok.data.sn).toMatch(/^\d{20}$/);
    expect(sb.balance(sb.demoKey)).toBe(start - price);

    // Final stays final: a second settle and the original due time change nothing.
    expect(sb.settle(a.data.id, "success")).toBe(false);
    await clock.advance(11 * HOUR);
    expect((await call("/transaksi/status", { id: a.data.id, type: "prabayar" })).data.status).toBe("failed");
    expect((await call("/transaksi/status", { id: b.data.id, type: "prabayar" })).data.status).toBe("success");
    expect(sb.balance(sb.demoKey)).toBe(start - price);

    // Untouched sales still follow their rule at settleMs.
    const c = await call("/transaksi/create", { code: "S10", reff_id: "SET-C", target: "081234567891" });
    expect((await call("/transaksi/status", { id: c.data.id, type: "prabayar" })).data.status).toBe("pending");
    await clock.advance(10 * HOUR);
    expect((await call("/transaksi/status", { id: c.data.id, type: "prabayar" })).data.status).toBe("success");
  });

  it("settles bill payments and transfers too, and refuses what is not a sale", async () => {
    env = await startSandbox({ settleMs: 10 * HOUR });
    const { sb, call } = env;
    await call("/transaksi/tagihan", { code: "PPLN", reff_id: "SET-BILL", customer_no: SANDBOX_CUSTOMERS.oneSheet });
    const bill = await call("/transaksi/tagihan/bayar", { code: "PPLN", reff_id: "SET-BILL", customer_no: SANDBOX_CUSTOMERS.oneSheet });
    expect(sb.settle(bill.data.id, "success")).toBe(true);
    expect((await call("/transaksi/status", { id: bill.data.id, type: "pascabayar" })).data.status).toBe("success");

    const tf = await call("/transfer/create", { ref_id: "SET-TF", kode_bank: "bca", nomor_akun: "1234567890", nama_pemilik: "BUDI", nominal: 10000 });
    const before = sb.balance(sb.demoKey);
    expect(sb.settle("SET-TF", "failed")).toBe(true);
    expect((await call("/transfer/status", { id: tf.data.id })).data.status).toBe("failed");
    expect(sb.balance(sb.demoKey)).toBe(before + Number(tf.data.total));

    expect(() => sb.settle("NO-SUCH-ID", "success")).toThrow(/no prepaid/);
    await call("/transaksi/tagihan", { code: "PPLN", reff_id: "SET-INQ", customer_no: SANDBOX_CUSTOMERS.twoSheets });
    expect(() => sb.settle("SET-INQ", "success")).toThrow(/no prepaid/);
  });
});
