import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { startSandbox, type Json } from "./harness.js";

let env: Awaited<ReturnType<typeof startSandbox>>;
afterEach(() => env?.sb.close());

const owed = (d: Json) =>
  d.detail.detail.reduce((sum: number, p: Json) => sum + Number(p.nilai_tagihan) + Number(p.denda ?? 0), 0) + d.biaya_admin;

describe("bill inquiry", () => {
  it("answers a PLN bill in the sample's shape", async () => {
    env = await startSandbox();
    const r = await env.call("/transaksi/tagihan", { code: "PPLN", reff_id: "inq-1", customer_no: SANDBOX_CUSTOMERS.oneSheet });
    expect(r).toMatchObject({ status: true, code: 200 });
    const d = r.data;
    expect(d).toMatchObject({ reff_id: "inq-1", nomor_pelanggan: SANDBOX_CUSTOMERS.oneSheet, code: "PPLN", biaya_admin: 2750 });
    expect(typeof d.nama_pelanggan).toBe("string");
    for (const k of ["harga", "biaya_admin", "total_tagihan"]) expect(typeof d[k]).toBe("number");
    expect(typeof d.detail.tarif).toBe("string");
    expect(typeof d.detail.daya).toBe("number");
    expect(d.detail.lembar_tagihan).toBe(1);
    expect(d.detail.detail).toHaveLength(1);
    const period = d.detail.detail[0];
    expect(period.periode).toBe("202512"); // the month before the clock's January 2026
    for (const k of ["nilai_tagihan", "admin", "denda"]) expect(period[k]).toMatch(/^\d+$/);
    expect(d.total_tagihan).toBe(owed(d));
    expect(d.harga).not.toBe(d.total_tagihan);
  });

  it("charges admin per sheet and penalties on older sheets", async () => {
    env = await startSandbox();
    const r = await env.call("/transaksi/tagihan", { code: "PPLN", reff_id: "inq-3", customer_no: SANDBOX_CUSTOMERS.threeSheets });
    expect(r.data.detail.lembar_tagihan).toBe(3);
    expect(r.data.biaya_admin).toBe(3 * 2750);
    expect(r.data.detail.detail.map((p: Json) => p.periode)).toEqual(["202510", "202511", "202512"]);
    expect(r.data.detail.detail[0].denda).not.toBe("0");
    expect(r.data.total_tagihan).toBe(owed(r.data));
  });

  it("answers BPJS with jumlah_peserta and period labels", async () => {
    env = await startSandbox();
    const r = await env.call("/transaksi/tagihan", { code: "BPJS", reff_id: "inq-b", customer_no: SANDBOX_CUSTOMERS.bpjs });
    expect(r.data.detail.jumlah_peserta).toMatch(/^\d+$/);
    expect(r.data.detail.detail[0]).toEqual({ periode: "202512" });
    expect(r.data.total_tagihan).toBeGreaterThan(r.data.biaya_admin);
  });

  it("refuses unknown customers, bills paid elsewhere, unknown and broken billers", async () => {
    env = await startSandbox();
    const { call } = env;
    expect(await call("/transaksi/tagihan", { code: "PPLN", reff_id: "x1", customer_no: SANDBOX_CUSTOMERS.notFound }))
      .toMatchObject({ status: false, message: "Nomor pelanggan tidak ditemukan" });
    expect(await call("/transaksi/tagihan", { code: "PPLN", reff_id: "x2", customer_no: SANDBOX_CUSTOMERS.alreadyPaid }))
      .toMatchObject({ status: false, message: "Tagihan sudah dibayar" });
    expect((await call("/transaksi/tagihan", { code: "NOPE", reff_id: "x3", customer_no: SANDBOX_CUSTOMERS.oneSheet })).status).toBe(false);
    expect((await call("/transaksi/tagihan", { code: "PDAMJKT", reff_id: "x4", customer_no: SANDBOX_CUSTOMERS.oneSheet })).status).toBe(false);
    expect((await call("/transaksi/tagihan", { code: "PPLN", reff_id: "x5", customer_no: "abc" })).status).toBe(false);
  });
});

describe("bill payment", () => {
  it("needs the inquiry's reff_id, debits harga, then succeeds; a second payment is refused", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const no = SANDBOX_CUSTOMERS.oneSheet;
    expect((await call("/transaksi/tagihan/bayar", { code: "PPLN", reff_id: "never", customer_no: no })).status).toBe(false);

    const inq = await call("/transaksi/tagihan", { code: "INDIHOME", reff_id: "bill-1", customer_no: no });
    expect((await call("/transaksi/tagihan/bayar", { code: "INDIHOME", reff_id: "bill-1", customer_no: "530112340004" })).status).toBe(false);

    const before = sb.balance(sb.demoKey);
    const pay = await call("/transaksi/tagihan/bayar", { code: "INDIHOME", reff_id: "bill-1", customer_no: no });
    expect(pay).toMatchObject({ status: true, code: 200 });
    expect(pay.data).toMatchObject({ reff_id: "bill-1", nomor_pelanggan: no, code: "INDIHOME", status: "pending", sn: null });
    expect(pay.data.harga).toBe(String(inq.data.harga));
    expect(typeof pay.data.id).toBe("string");
    expect(sb.balance(sb.demoKey)).toBe(before - inq.data.harga);

    expect(await call("/transaksi/tagihan/bayar", { code: "INDIHOME", reff_id: "bill-1", customer_no: no }))
      .toMatchObject({ status: false, message: "Tagihan sudah dibayar" });
    expect(await call("/transaksi/tagihan", { code: "INDIHOME", reff_id: "bill-2", customer_no: no }))
      .toMatchObject({ status: false, message: "Tagihan sudah dibayar" });

    await clock.advance(5000);
    const s = await call("/transaksi/status", { id: pay.data.id, type: "pascabayar" });
    expect(s.data).toMatchObject({ status: "success", reff_id: "bill-1", harga: pay.data.harga });
    expect(s.data.sn).toBeTruthy();
    expect(sb.balance(sb.demoKey)).toBe(before - inq.data.harga);
  });

  it("fails payments for numbers ending in 0000, refunds, and lets the bill be paid again", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const no = SANDBOX_CUSTOMERS.paymentFails;
    const before = sb.balance(sb.demoKey);
    await call("/transaksi/tagihan", { code: "PPLN", reff_id: "f-1", customer_no: no });
    const pay = await call("/transaksi/tagihan/bayar", { code: "PPLN", reff_id: "f-1", customer_no: no });
    expect(sb.balance(sb.demoKey)).toBeLessThan(before);
    await clock.advance(5000);
    expect(sb.balance(sb.demoKey)).toBe(before);
    expect((await call("/transaksi/status", { id: pay.data.id, type: "pascabayar" })).data.status).toBe("failed");
    expect((await call("/transaksi/tagihan", { code: "PPLN", reff_id: "f-2", customer_no: no })).status).toBe(true);
  });

  it("refuses a payment the balance cannot cover", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    await call("/transaksi/tagihan", { api_key: "SANDBOX-KEY-LOW", code: "PPLN", reff_id: "l-1", customer_no: SANDBOX_CUSTOMERS.oneSheet });
    const pay = await call("/transaksi/tagihan/bayar", { api_key: "SANDBOX-KEY-LOW", code: "PPLN", reff_id: "l-1", customer_no: SANDBOX_CUSTOMERS.oneSheet });
    expect(pay).toMatchObject({ status: false, message: "Saldo tidak mencukupi" });
    expect(sb.balance("SANDBOX-KEY-LOW")).toBe(5000);
  });
});
