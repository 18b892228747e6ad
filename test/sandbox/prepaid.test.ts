import { afterEach, describe, expect, it } from "vitest";
import { formatWib } from "../../src/tools/time.js";
import { startSandbox } from "./harness.js";

let env: Awaited<ReturnType<typeof startSandbox>>;
afterEach(() => env?.sb.close());

describe("price list", () => {
  it("lists over 100 prepaid products in the wire shape", async () => {
    env = await startSandbox();
    const r = await env.call("/layanan/price_list", { type: "prabayar" });
    expect(r.status).toBe(true);
    expect(r.code).toBe(200);
    expect(r.data.length).toBeGreaterThanOrEqual(100);
    const categories = new Set(r.data.map((p: { category: string }) => p.category));
    for (const c of ["Pulsa", "Data", "PLN", "Games", "E-Money"]) expect(categories).toContain(c);
    const providers = new Set(r.data.map((p: { provider: string }) => p.provider));
    for (const p of ["TELKOMSEL", "INDOSAT", "XL", "TRI", "SMARTFREN", "PLN", "MOBILE LEGENDS", "DANA"]) expect(providers).toContain(p);
    for (const p of r.data) {
      expect(p.price).toMatch(/^\d+$/);
      expect(["available", "empty"]).toContain(p.status);
    }
    expect(r.data.filter((p: { status: string }) => p.status === "empty").length).toBeGreaterThanOrEqual(3);
    const ml = r.data.find((p: { code: string }) => p.code === "ML85");
    expect(ml.note).toMatch(/ID \+ Server/);
  });

  it("returns a single product for code, and refuses unknown codes and types", async () => {
    env = await startSandbox();
    const r = await env.call("/layanan/price_list", { type: "prabayar", code: "PLN100" });
    expect(r.data).toHaveLength(1);
    expect(r.data[0]).toMatchObject({ code: "PLN100", category: "PLN", provider: "PLN", note: "masukkan nomor meter/id pelanggan" });
    expect(Number(r.data[0].price)).toBeGreaterThan(100000);
    expect(await env.call("/layanan/price_list", { type: "prabayar", code: "NOPE" })).toMatchObject({ status: false });
    expect(await env.call("/layanan/price_list", { type: "lainnya" })).toMatchObject({ status: false });
  });

  it("lists postpaid billers with admin and komisi as strings", async () => {
    env = await startSandbox();
    const r = await env.call("/layanan/price_list", { type: "pascabayar" });
    const codes = r.data.map((p: { code: string }) => p.code);
    for (const c of ["PPLN", "BPJS", "PDAMSBY", "INDIHOME", "HALO"]) expect(codes).toContain(c);
    for (const p of r.data) {
      expect(p.admin).toMatch(/^\d+$/);
      expect(p.komisi).toMatch(/^\d+$/);
      expect(typeof p.layanan).toBe("string");
    }
  });
});

describe("prepaid purchase", () => {
  it("debits, answers 202 pending with sn null, then succeeds with a PLN token", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const before = sb.balance(sb.demoKey);
    const r = await call("/transaksi/create", { code: "PLN50", reff_id: "ref-1", target: "123456789012" });
    expect(r).toMatchObject({ status: true, code: 202, message: "Transaksi diproses" });
    expect(r.data).toMatchObject({ reff_id: "ref-1", code: "PLN50", layanan: "PLN 50.000", target: "123456789012", sn: null, status: "pending" });
    expect(r.data.price).toBe("50113");
    expect(r.data.created_at).toBe(formatWib(clock.now()));
    expect(sb.balance(sb.demoKey)).toBe(before - 50113);

    await clock.advance(4999);
    let s = await call("/transaksi/status", { id: r.data.id, type: "prabayar" });
    expect(s.data.status).toBe("pending");
    await clock.advance(1);
    s = await call("/transaksi/status", { id: r.data.id, type: "prabayar" });
    expect(s).toMatchObject({ status: true, code: 200 });
    expect(s.data.status).toBe("success");
    expect(s.data.sn).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(sb.balance(sb.demoKey)).toBe(before - 50113);
  });

  it("fails targets ending in 0000 and refunds once, even if nobody reads the status", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const before = sb.balance(sb.demoKey);
    const r = await call("/transaksi/create", { code: "S10", reff_id: "ref-f", target: "081234560000" });
    expect(r.data.status).toBe("pending");
    expect(sb.balance(sb.demoKey)).toBe(before - 10500);
    await clock.advance(5000);
    expect(sb.balance(sb.demoKey)).toBe(before);
    const s = await call("/transaksi/status", { id: r.data.id, type: "prabayar" });
    expect(s.data.status).toBe("failed");
    await call("/transaksi/status", { id: r.data.id, type: "prabayar" });
    expect(sb.balance(sb.demoKey)).toBe(before);
  });

  it("refuses a reused reff_id and keeps the original", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    const first = await call("/transaksi/create", { code: "S10", reff_id: "dup", target: "081234567890" });
    const after = sb.balance(sb.demoKey);
    const again = await call("/transaksi/create", { code: "X10", reff_id: "dup", target: "081299999999" });
    expect(again).toMatchObject({ status: false, message: "Reff ID sudah digunakan" });
    expect(again.data).toBeUndefined();
    expect(sb.balance(sb.demoKey)).toBe(after);
    const s = await call("/transaksi/status", { id: first.data.id, type: "prabayar" });
    expect(s.data).toMatchObject({ reff_id: "dup", code: "S10", target: "081234567890" });
    expect(sb.calls("/transaksi/create")).toHaveLength(2);
  });

  it("refuses when the price rose above limit_price, naming the current price", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    const before = sb.balance(sb.demoKey);
    sb.setPrice("S10", 10750);
    const r = await call("/transaksi/create", { code: "S10", reff_id: "lp", target: "081234567890", limit_price: 10500 });
    expect(r.status).toBe(false);
    expect(r.message).toContain("Rp 10.750");
    expect(sb.balance(sb.demoKey)).toBe(before);
    const ok = await call("/transaksi/create", { code: "S10", reff_id: "lp", target: "081234567890", limit_price: 10750 });
    expect(ok.data.price).toBe("10750");
  });

  it("refuses insufficient balance, empty and unknown products, bad targets", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    const low = await call("/transaksi/create", { api_key: "SANDBOX-KEY-LOW", code: "S10", reff_id: "a", target: "081234567890" });
    expect(low).toMatchObject({ status: false, message: "Saldo tidak mencukupi" });
    expect(sb.balance("SANDBOX-KEY-LOW")).toBe(5000);

    const empty = await call("/transaksi/create", { code: "I5", reff_id: "b", target: "085712345678" });
    expect(empty.status).toBe(false);
    expect(empty.message).toMatch(/gangguan|kosong/);
    sb.setProductStatus("I5", "available");
    expect((await call("/transaksi/create", { code: "I5", reff_id: "b", target: "085712345678" })).status).toBe(true);
    sb.setProductStatus("S10", "empty");
    expect((await call("/transaksi/create", { code: "S10", reff_id: "c", target: "081234567890" })).status).toBe(false);

    expect((await call("/transaksi/create", { code: "NOPE1", reff_id: "d", target: "081234567890" })).status).toBe(false);
    expect((await call("/transaksi/create", { code: "S20", reff_id: "e", target: "!!" })).status).toBe(false);
    expect((await call("/transaksi/create", { code: "S20", target: "081234567890" })).message).toMatch(/reff_id/);
  });

  it("hides other accounts' transactions and unknown ids", async () => {
    env = await startSandbox();
    const { call } = env;
    const r = await call("/transaksi/create", { code: "S10", reff_id: "mine", target: "081234567890" });
    const other = await call("/transaksi/status", { api_key: "SANDBOX-KEY-2", id: r.data.id, type: "prabayar" });
    expect(other).toMatchObject({ status: false, message: "Transaksi tidak ditemukan" });
    expect((await call("/transaksi/status", { id: "nope", type: "prabayar" })).status).toBe(false);
    expect((await call("/transaksi/status", { id: r.data.id, type: "x" })).status).toBe(false);
  });

  it("gives non-PLN products a serial number on success", async () => {
    env = await startSandbox();
    const { call, clock } = env;
    const tx = await call("/transaksi/create", { code: "ML85", reff_id: "g", target: "123456781234" });
    await clock.advance(5000);
    const s = await call("/transaksi/status", { id: tx.data.id, type: "prabayar" });
    expect(s.data.status).toBe("success");
    expect(s.data.sn).toMatch(/^\d{10,}$/);
  });
});
