import { afterEach, describe, expect, it } from "vitest";
import { parseTlv, verifyQrisCrc } from "../../src/sandbox/index.js";
import { formatWib, parseWib } from "../../src/tools/time.js";
import { startSandbox } from "./harness.js";

let env: Awaited<ReturnType<typeof startSandbox>>;
afterEach(() => env?.sb.close());

const HOUR = 3600_000;
const expiresIn = (d: { created_at: string; expired_at: string }) => parseWib(d.expired_at)!.getTime() - parseWib(d.created_at)!.getTime();

describe("deposit methods", () => {
  it("lists methods with every value a string, filterable by type and method", async () => {
    env = await startSandbox();
    const { call } = env;
    const r = await call("/deposit/metode");
    expect(r).toMatchObject({ status: true, code: 200 });
    for (const m of r.data) for (const v of Object.values(m)) expect(typeof v).toBe("string");
    const qris = r.data.find((m: { metode: string }) => m.metode === "qris");
    expect(qris).toMatchObject({ type: "ewallet", min: "10000", max: "10000000", fee: "0", fee_persen: "0.7", status: "aktif" });
    expect(r.data.some((m: { status: string }) => m.status === "nonaktif")).toBe(true);
    const types = new Set(r.data.map((m: { type: string }) => m.type));
    expect([...types].sort()).toEqual(["bank", "ewallet", "va"]);
    const va = await call("/deposit/metode", { type: "va" });
    expect(va.data.every((m: { type: string }) => m.type === "va")).toBe(true);
    expect((await call("/deposit/metode", { metode: "qrisfast" })).data).toHaveLength(1);
  });
});

describe("deposit create", () => {
  it("QRIS: a valid dynamic qr_string with the amount in tag 54, fee 0.7%, 1 hour expiry", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const r = await call("/deposit/create", { reff_id: "dq", nominal: 50000, type: "ewallet", metode: "qris" });
    expect(r).toMatchObject({ status: true, code: 200 });
    const d = r.data;
    expect(d).toMatchObject({ reff_id: "dq", nominal: 50000, tambahan: 0, fee: 350, get_balance: 49650, status: "pending" });
    expect(d.created_at).toBe(formatWib(clock.now()));
    expect(expiresIn(d)).toBe(HOUR);
    expect(d.qr_string.startsWith("000201010212")).toBe(true);
    expect(verifyQrisCrc(d.qr_string)).toBe(true);
    const tags = parseTlv(d.qr_string)!;
    expect(tags.get("54")).toBe("50000");
    expect(parseTlv(tags.get("62")!)!.get("05")).toBe(d.id);
    expect(d.qr_image).toBe(`${sb.url}/qr/${d.id}`);
    const img = await fetch(d.qr_image);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await img.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");
  });

  it("accepts `method` as well as `metode`", async () => {
    env = await startSandbox();
    const r = await env.call("/deposit/create", { reff_id: "dm", nominal: 50000, type: "ewallet", method: "qrisfast" });
    expect(r.data.fee).toBe(700);
  });

  it("bank: a unique add-on, nominal = requested + tambahan, destination fields, expiry 23:59:59 WIB", async () => {
    env = await startSandbox();
    const { call } = env;
    const r = await call("/deposit/create", { reff_id: "db", nominal: 50000, type: "bank", metode: "bca" });
    const d = r.data;
    expect(d.tambahan).toBeGreaterThanOrEqual(100);
    expect(d.tambahan).toBeLessThanOrEqual(999);
    expect(d.nominal).toBe(50000 + d.tambahan);
    expect(d).toMatchObject({ bank: "BCA", fee: 0, get_balance: d.nominal });
    expect(d.tujuan).toMatch(/^\d+$/);
    expect(d.atas_nama).toBeTruthy();
    expect(d.expired_at).toBe("2026-01-15 23:59:59");
    const seen = new Set<number>([d.tambahan]);
    for (let i = 0; i < 20; i++) {
      const o = await call("/deposit/create", { reff_id: `db-${i}`, nominal: 50000, type: "bank", metode: "bca" });
      expect(seen.has(o.data.tambahan)).toBe(false);
      seen.add(o.data.tambahan);
    }
  });

  it("VA: bank and nomor_va, fixed fee, 24 hours; e-wallet: a url, 1.5%, 3 hours", async () => {
    env = await startSandbox();
    const { call } = env;
    const va = (await call("/deposit/create", { reff_id: "dv", nominal: 100000, type: "va", metode: "bcava" })).data;
    expect(va).toMatchObject({ bank: "BCA", fee: 4000, get_balance: 96000 });
    expect(va.nomor_va).toMatch(/^39358\d{11}$/);
    expect(expiresIn(va)).toBe(24 * HOUR);
    const ew = (await call("/deposit/create", { reff_id: "de", nominal: 20000, type: "ewallet", metode: "dana" })).data;
    expect(ew).toMatchObject({ fee: 300, get_balance: 19700 });
    expect(ew.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\//);
    expect(expiresIn(ew)).toBe(3 * HOUR);
  });

  it("refuses amounts out of range, inactive or unknown methods, wrong type, reused reff_id", async () => {
    env = await startSandbox();
    const { call } = env;
    expect((await call("/deposit/create", { reff_id: "a", nominal: 5000, type: "ewallet", metode: "qris" })).message).toMatch(/Minimal/);
    expect((await call("/deposit/create", { reff_id: "a", nominal: 20000000, type: "ewallet", metode: "qris" })).message).toMatch(/Maksimal/);
    expect((await call("/deposit/create", { reff_id: "a", nominal: 50000, type: "ewallet", metode: "shopeepay" })).status).toBe(false);
    expect((await call("/deposit/create", { reff_id: "a", nominal: 50000, type: "ewallet", metode: "nope" })).status).toBe(false);
    expect((await call("/deposit/create", { reff_id: "a", nominal: 50000, type: "va", metode: "qris" })).status).toBe(false);
    expect((await call("/deposit/create", { reff_id: "a", nominal: "abc", type: "ewallet", metode: "qris" })).status).toBe(false);
    const first = await call("/deposit/create", { reff_id: "a", nominal: 50000, type: "ewallet", metode: "qris" });
    expect(first.status).toBe(true);
    expect(await call("/deposit/create", { reff_id: "a", nominal: 60000, type: "ewallet", metode: "qris" })).toMatchObject({ status: false, message: "Reff ID sudah digunakan" });
  });
});

describe("deposit lifecycle", () => {
  it("status gives every amount as a string and metode; plain QRIS goes processing then success (credited only then)", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    const before = sb.balance(sb.demoKey);
    const id = (await call("/deposit/create", { reff_id: "l1", nominal: 50000, type: "ewallet", metode: "qris" })).data.id;
    let s = await call("/deposit/status", { id });
    expect(s).toMatchObject({ status: true, code: 200 });
    expect(s.data).toMatchObject({ id, reff_id: "l1", nominal: "50000", tambahan: "0", fee: "350", get_balance: "49650", metode: "QRIS", status: "pending" });
    sb.payDeposit(id);
    s = await call("/deposit/status", { id });
    expect(s.data.status).toBe("processing");
    expect(sb.balance(sb.demoKey)).toBe(before);
    sb.settleDeposit(id);
    expect((await call("/deposit/status", { id })).data.status).toBe("success");
    expect(sb.balance(sb.demoKey)).toBe(before + 49650);
  });

  it("qrisfast and bank deposits succeed as soon as they are paid", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    const before = sb.balance(sb.demoKey);
    const fast = (await call("/deposit/create", { reff_id: "f", nominal: 100000, type: "ewallet", metode: "qrisfast" })).data;
    const bank = (await call("/deposit/create", { reff_id: "b", nominal: 100000, type: "bank", metode: "mandiri" })).data;
    sb.payDeposit(fast.id);
    sb.payDeposit(bank.id);
    expect((await call("/deposit/status", { id: fast.id })).data.status).toBe("success");
    expect((await call("/deposit/status", { id: bank.id })).data.status).toBe("success");
    expect(sb.balance(sb.demoKey)).toBe(before + fast.get_balance + bank.get_balance);
  });

  it("expires unpaid deposits; a late QRIS payment within 15 minutes is still accepted", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const before = sb.balance(sb.demoKey);
    const late = (await call("/deposit/create", { reff_id: "q1", nominal: 50000, type: "ewallet", metode: "qrisfast" })).data;
    const tooLate = (await call("/deposit/create", { reff_id: "q2", nominal: 50000, type: "ewallet", metode: "qris" })).data;
    const va = (await call("/deposit/create", { reff_id: "v1", nominal: 50000, type: "va", metode: "briva" })).data;
    await clock.advance(HOUR);
    expect((await call("/deposit/status", { id: late.id })).data.status).toBe("expired");
    await clock.advance(10 * 60_000);
    sb.payDeposit(late.id);
    expect((await call("/deposit/status", { id: late.id })).data.status).toBe("success");
    expect(sb.balance(sb.demoKey)).toBe(before + late.get_balance);

    await clock.advance(6 * 60_000);
    expect(() => sb.payDeposit(tooLate.id)).toThrow();
    expect((await call("/deposit/status", { id: tooLate.id })).data.status).toBe("expired");
    expect((await call("/deposit/status", { id: va.id })).data.status).toBe("pending");
    await clock.advance(24 * HOUR);
    expect((await call("/deposit/status", { id: va.id })).data.status).toBe("expired");
    expect(() => sb.payDeposit(va.id)).toThrow();
    expect(sb.balance(sb.demoKey)).toBe(before + late.get_balance);
  });

  it("cancels only while pending", async () => {
    env = await startSandbox();
    const { sb, call, clock } = env;
    const before = sb.balance(sb.demoKey);
    const a = (await call("/deposit/create", { reff_id: "c1", nominal: 50000, type: "ewallet", metode: "qris" })).data;
    const c = await call("/deposit/cancel", { id: a.id });
    expect(c).toMatchObject({ status: true, code: 200, data: { id: a.id, status: "cancel", created_at: a.created_at } });
    expect((await call("/deposit/status", { id: a.id })).data.status).toBe("cancel");
    expect((await call("/deposit/cancel", { id: a.id })).status).toBe(false);
    expect(() => sb.payDeposit(a.id)).toThrow();

    const b = (await call("/deposit/create", { reff_id: "c2", nominal: 50000, type: "ewallet", metode: "qris" })).data;
    sb.payDeposit(b.id);
    expect((await call("/deposit/cancel", { id: b.id })).status).toBe(false);
    const e = (await call("/deposit/create", { reff_id: "c3", nominal: 50000, type: "ewallet", metode: "qris" })).data;
    await clock.advance(HOUR);
    expect((await call("/deposit/cancel", { id: e.id })).status).toBe(false);
    expect((await call("/deposit/cancel", { id: "nope" })).status).toBe(false);
    expect(sb.balance(sb.demoKey)).toBe(before);
  });

  it("instant: only while processing; action=false previews, action=true releases once", async () => {
    env = await startSandbox();
    const { sb, call } = env;
    const before = sb.balance(sb.demoKey);
    const d = (await call("/deposit/create", { reff_id: "i1", nominal: 25000, type: "ewallet", metode: "qris" })).data;
    expect((await call("/deposit/instant", { id: d.id, action: "false" })).status).toBe(false);
    sb.payDeposit(d.id);

    const preview = await call("/deposit/instant", { id: d.id, action: "false" });
    expect(preview).toMatchObject({ status: true, code: 200 });
    const p = preview.data;
    expect(p).toMatchObject({ id: d.id, reff_id: "i1", nominal: 25000, status: "processing" });
    expect(p.penanganan).toBeGreaterThan(0);
    expect(p.total_fee).toBe(d.fee + p.penanganan);
    expect(p.total_diterima).toBe(25000 - p.total_fee);
    expect((await call("/deposit/status", { id: d.id })).data.status).toBe("processing");
    expect(sb.balance(sb.demoKey)).toBe(before);

    const release = await call("/deposit/instant", { id: d.id, action: "true" });
    expect(release.data).toMatchObject({ status: "success", total_diterima: p.total_diterima });
    expect(sb.balance(sb.demoKey)).toBe(before + p.total_diterima);
    const s = (await call("/deposit/status", { id: d.id })).data;
    expect(s).toMatchObject({ status: "success", get_balance: String(p.total_diterima), fee: String(p.total_fee) });

    expect((await call("/deposit/instant", { id: d.id, action: "true" })).status).toBe(false);
    expect(() => sb.settleDeposit(d.id)).toThrow();
    expect(sb.balance(sb.demoKey)).toBe(before + p.total_diterima);
    expect((await call("/deposit/instant", { id: d.id, action: "maybe" })).status).toBe(false);
  });

  it("demo auto-pay: paid after the delay, plain deposits settle the next working morning", async () => {
    env = await startSandbox({ autoPayDepositsAfterMs: 20_000 });
    const { sb, call, clock } = env;
    const before = sb.balance(sb.demoKey);
    const plain = (await call("/deposit/create", { reff_id: "a1", nominal: 50000, type: "ewallet", metode: "qris" })).data;
    const fast = (await call("/deposit/create", { reff_id: "a2", nominal: 50000, type: "ewallet", metode: "qrisfast" })).data;
    await clock.advance(19_999);
    expect((await call("/deposit/status", { id: plain.id })).data.status).toBe("pending");
    await clock.advance(1);
    expect(sb.balance(sb.demoKey)).toBe(before + fast.get_balance);
    expect((await call("/deposit/status", { id: plain.id })).data.status).toBe("processing");
    expect((await call("/deposit/status", { id: fast.id })).data.status).toBe("success");
    // Thursday 10:00 WIB -> Friday 08:00 WIB.
    await clock.advance(22 * HOUR);
    expect(sb.balance(sb.demoKey)).toBe(before + fast.get_balance + plain.get_balance);
    expect((await call("/deposit/status", { id: plain.id })).data.status).toBe("success");
  });

  it("the e-wallet payment page pays the deposit", async () => {
    env = await startSandbox();
    const { call } = env;
    const d = (await call("/deposit/create", { reff_id: "p1", nominal: 20000, type: "ewallet", metode: "dana" })).data;
    expect((await fetch(d.url)).status).toBe(200);
    expect((await fetch(d.url, { method: "POST" })).status).toBe(200);
    expect((await call("/deposit/status", { id: d.id })).data.status).toBe("processing");
    expect((await fetch(d.url, { method: "POST" })).status).toBe(409);
  });
});
