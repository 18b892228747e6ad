import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { post, startSandbox } from "./harness.js";

let env: Awaited<ReturnType<typeof startSandbox>>;
afterEach(() => env?.sb.close());

// After an unknown create outcome the bot has only its own reference: the four status endpoints
// also find a record by the client's reff_id (the real provider's behaviour there is undocumented).
describe("status endpoints accept the client's reff_id as the id", () => {
  it("finds prepaid, postpaid, transfer and deposit records by reff_id, only for their own key", async () => {
    env = await startSandbox();
    const { sb, call } = env;

    const pre = await call("/transaksi/create", { code: "S10", reff_id: "REF-PRE-1", target: "081234567890" });
    expect(pre.status).toBe(true);
    const byReff = await call("/transaksi/status", { id: "REF-PRE-1", type: "prabayar" });
    expect(byReff).toMatchObject({ status: true, data: { id: pre.data.id, reff_id: "REF-PRE-1", status: "pending" } });

    await call("/transaksi/tagihan", { code: "PPLN", reff_id: "REF-BILL-1", customer_no: SANDBOX_CUSTOMERS.oneSheet });
    const paid = await call("/transaksi/tagihan/bayar", { code: "PPLN", reff_id: "REF-BILL-1", customer_no: SANDBOX_CUSTOMERS.oneSheet });
    const bill = await call("/transaksi/status", { id: "REF-BILL-1", type: "pascabayar" });
    expect(bill).toMatchObject({ status: true, data: { id: paid.data.id, reff_id: "REF-BILL-1" } });

    const tf = await call("/transfer/create", { ref_id: "REF-TF-1", kode_bank: "bca", nomor_akun: "1234567890", nama_pemilik: "BUDI", nominal: 10000 });
    const tfStatus = await call("/transfer/status", { id: "REF-TF-1" });
    expect(tfStatus).toMatchObject({ status: true, data: { id: tf.data.id, reff_id: "REF-TF-1" } });

    const dep = await call("/deposit/create", { reff_id: "REF-DP-1", nominal: 50000, type: "ewallet", metode: "qris" });
    const depStatus = await call("/deposit/status", { id: "REF-DP-1" });
    expect(depStatus).toMatchObject({ status: true, data: { id: dep.data.id, reff_id: "REF-DP-1", status: "pending" } });

    // The provider id still works, and an unknown reference is "not found".
    expect((await call("/transfer/status", { id: tf.data.id })).data.reff_id).toBe("REF-TF-1");
    expect(await call("/transaksi/status", { id: "REF-NOPE", type: "prabayar" })).toMatchObject({ status: false });
    // An inquiry without a payment is not a payment.
    await call("/transaksi/tagihan", { code: "PPLN", reff_id: "REF-BILL-2", customer_no: SANDBOX_CUSTOMERS.twoSheets });
    expect((await call("/transaksi/status", { id: "REF-BILL-2", type: "pascabayar" })).status).toBe(false);

    // Another key's reference is not found, by reff_id or by provider id.
    const other = async (path: string, form: Record<string, string>) =>
      (await post(sb.url, path, { api_key: "SANDBOX-KEY-2", ...form })).json;
    expect((await other("/transaksi/status", { id: "REF-PRE-1", type: "prabayar" })).status).toBe(false);
    expect((await other("/transfer/status", { id: "REF-TF-1" })).status).toBe(false);
    expect((await other("/deposit/status", { id: "REF-DP-1" })).status).toBe(false);
    expect((await other("/deposit/status", { id: dep.data.id })).status).toBe(false);
  });
});
