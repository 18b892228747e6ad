import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "./harness.js";

let env: Awaited<ReturnType<typeof startSandbox>>;
afterEach(() => env?.sb.close());

describe("bank list and account check", () => {
  it("lists banks and e-wallets with status as the string true", async () => {
    env = await startSandbox();
    const r = await env.call("/transfer/bank_list");
    expect(r.status).toBe("true");
    expect(r.message).toBe("Data retrieved successfully");
    expect(r.data.length).toBeGreaterThanOrEqual(20);
    const codes = r.data.map((b: { bank_code: string }) => b.bank_code);
    for (const c of ["bca", "bni", "bri", "mandiri", "dana", "ovo", "gopay", "shopeepay"]) expect(codes).toContain(c);
    expect(r.data[0]).toEqual({ id: "1", bank_code: "mandiri", bank_name: "Bank Mandiri", type: "bank" });
  });

  it("answers valid with a masked name, invalid for ...999, processing for ...777, and overrides", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    const valid = await call("/transfer/cek_rekening", { bank_code: "bca", account_number: "1234567890" });
    expect(valid).toMatchObject({ status: true, data: { kode_bank: "bca", nomor_akun: "1234567890", status: "valid" } });
    expect(valid.data.nama_pemilik).toMatch(/^[A-Z]{2}X*( [A-Z]{2}X*)*$/);
    expect((await call("/transfer/cek_rekening", { bank_code: "bca", account_number: "1234567999" })).data.status).toBe("invalid");
    expect((await call("/transfer/cek_rekening", { bank_code: "ovo", account_number: "081234567777" })).data.status).toBe("processing");
    expect((await call("/transfer/cek_rekening", { bank_code: "nobank", account_number: "1234567890" })).status).toBe(false);
    sb.setAccountStatus("bca", "1234567890", "invalid");
    expect((await call("/transfer/cek_rekening", { bank_code: "bca", account_number: "1234567890" })).data.status).toBe("invalid");
    sb.setAccountStatus("bca", "5555555999", "valid", "SIXX RAXXXX");
    const o = await call("/transfer/cek_rekening", { bank_code: "bca", account_number: "5555555999" });
    expect(o.data).toMatchObject({ status: "valid", nama_pemilik: "SIXX RAXXXX" });
  });
});

describe("transfer", () => {
  const form = { ref_id: "tf-1", kode_bank: "bca", nomor_akun: "1234567890", nama_pemilik: "BUDI SANTOSO", nominal: 10000, email: "a@b.c", phone: "0812", note: "gaji" };

  it("debits nominal + fee, answers the create quirks, then succeeds", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const before = sb.balance(sb.demoKey);
    const r = await call("/transfer/create", form);
    expect(r).toMatchObject({ status: true, code: 200, message: "Data berhasil diproses" });
    expect(r.data).toMatchObject({ reff_id: "tf-1", nama: "BUDI SANTOSO", nomor_tujuan: "1234567890", nominal: "10000", fee: 2500, total: 12500, status: "pending" });
    expect(r.data.detail).toEqual({ email: "a@b.c", phone: "0812", note: "gaji" });
    expect(r.data.bank_code).toBeUndefined();
    expect(sb.balance(sb.demoKey)).toBe(before - 12500);

    await clock.advance(5000);
    const s = await call("/transfer/status", { id: r.data.id });
    expect(s.data).toMatchObject({ status: "success", nominal: "10000", fee: "2500", total: 12500, bank_code: "bca" });
    expect(sb.balance(sb.demoKey)).toBe(before - 12500);
  });

  it("charges the e-wallet fee for e-wallets", async () => {
    env = await startSandbox();
    const r = await env.call("/transfer/create", { ...form, kode_bank: "dana", nomor_akun: "081234567890" });
    expect(r.data).toMatchObject({ fee: 1000, total: 11000 });
  });

  it("fails accounts ending in 000 and refunds the total", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const before = sb.balance(sb.demoKey);
    const r = await call("/transfer/create", { ...form, nomor_akun: "1234567000" });
    expect(sb.balance(sb.demoKey)).toBe(before - 12500);
    await clock.advance(5000);
    expect(sb.balance(sb.demoKey)).toBe(before);
    expect((await call("/transfer/status", { id: r.data.id })).data.status).toBe("failed");
  });

  it("refuses a reused ref_id, low balance, invalid accounts, bad banks and amounts", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    await call("/transfer/create", form);
    const after = sb.balance(sb.demoKey);
    expect(await call("/transfer/create", { ...form, nominal: 20000 })).toMatchObject({ status: false });
    expect(sb.balance(sb.demoKey)).toBe(after);
    expect(sb.calls("/transfer/create")).toHaveLength(2);
    expect(await call("/transfer/create", { ...form, api_key: "SANDBOX-KEY-LOW", ref_id: "x" })).toMatchObject({ status: false, message: "Saldo tidak mencukupi" });
    expect((await call("/transfer/create", { ...form, ref_id: "y", nomor_akun: "1234567999" })).status).toBe(false);
    expect((await call("/transfer/create", { ...form, ref_id: "z", kode_bank: "nobank" })).status).toBe(false);
    expect((await call("/transfer/create", { ...form, ref_id: "w", nominal: 500 })).status).toBe(false);
    expect((await call("/transfer/create", { ...form, ref_id: "v", nominal: "10.000" })).status).toBe(false);
    expect((await call("/transfer/status", { id: "unknown" })).status).toBe(false);
    expect(sb.balance(sb.demoKey)).toBe(after);
  });
});
