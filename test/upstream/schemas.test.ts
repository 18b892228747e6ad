/** Provider quirks beyond the samples: envelope flags, amount coercion, aliases, placeholders. */
import { describe, expect, it } from "vitest";
import type * as z from "../../src/tools/zod.js";
import { decodeAnswer, decodeBody, formatPath } from "../../src/upstream/decode.js";
import {
  GENERIC_REJECTION_MESSAGE,
  UpstreamRejected,
  UpstreamUnavailable,
  UpstreamUnexpected,
} from "../../src/upstream/errors.js";
import { billInquirySchema, billPaymentSchema } from "../../src/upstream/schemas/bills.js";
import { depositCancelSchema, depositMethodListSchema, depositSchema } from "../../src/upstream/schemas/deposits.js";
import { skippedItems } from "../../src/upstream/schemas/fields.js";
import { postpaidListSchema, prepaidListSchema } from "../../src/upstream/schemas/prices.js";
import { profileSchema } from "../../src/upstream/schemas/profile.js";
import { prepaidTransactionSchema } from "../../src/upstream/schemas/transactions.js";
import { accountCheckSchema, bankListSchema, transferSchema } from "../../src/upstream/schemas/transfers.js";
import { wib } from "./server.js";

const read = { endpoint: "/x", create: false };
const ok = <T extends z.ZodMiniType>(schema: T, data: unknown) => decodeBody({ status: true, data }, schema, read);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

const tx = {
  id: "T1",
  reff_id: "R1",
  layanan: "Pulsa 10k",
  code: "S10",
  target: "0812",
  price: "10150",
  sn: null,
  status: "pending",
  created_at: "2026-01-15 10:00:00",
};

describe("envelope", () => {
  it.each([true, "true", "TRUE"])("status %j is success", (status) => {
    expect(decodeBody({ status, data: tx }, prepaidTransactionSchema, read).id).toBe("T1");
  });

  it.each([false, "false"])("status %j is a rejection carrying message and code", (status) => {
    const e = thrown(() => decodeBody({ status, message: "Saldo tidak cukup", code: "400" }, profileSchema, read));
    expect(e).toBeInstanceOf(UpstreamRejected);
    expect(e).toMatchObject({ providerMessage: "Saldo tidak cukup", providerCode: 400, outcomeUnknown: false });
  });

  it("a rejection without message gets a generic text; a message array is joined", () => {
    expect(thrown(() => decodeBody({ status: false }, profileSchema, read))).toMatchObject({
      providerMessage: GENERIC_REJECTION_MESSAGE,
    });
    const e = thrown(() => decodeBody({ status: false, message: { code: ["wajib diisi"] } }, profileSchema, read));
    expect(e).toMatchObject({ providerMessage: "wajib diisi" });
    expect((e as UpstreamRejected).providerCode).toBeUndefined();
  });

  it("a missing or odd status is unexpected, naming `status`", () => {
    for (const body of [{ data: tx }, { status: "ok", data: tx }, { status: 1, data: tx }]) {
      const e = thrown(() => decodeBody(body, prepaidTransactionSchema, read));
      expect(e).toBeInstanceOf(UpstreamUnexpected);
      expect(e).toMatchObject({ field: "status" });
    }
  });

  it("status true without data names `data`", () => {
    expect(thrown(() => decodeBody({ status: true }, prepaidTransactionSchema, read))).toMatchObject({
      field: "data",
    });
  });

  it("a non-object JSON body is malformed", () => {
    const e = thrown(() => decodeBody([1, 2], profileSchema, read));
    expect(e).toBeInstanceOf(UpstreamUnavailable);
    expect(e).toMatchObject({ reason: "malformed" });
  });

  it("formats paths with indexes", () => {
    expect(formatPath(["data", 3, "price"])).toBe("data[3].price");
    expect(formatPath([])).toBe("(body)");
  });
});

describe("http classification", () => {
  const schema = profileSchema;
  const profile = { status: true, data: { name: "a", balance: 5 } };
  it.each([
    [{ status: 502, text: "<html>Bad gateway</html>", contentType: "text/html" }, "http", 502],
    [{ status: 500, text: JSON.stringify({ status: false, message: "x" }) }, "http", 500],
    [{ status: 200, text: "<!DOCTYPE html><title>Just a moment...</title>" }, "html", 200],
    [{ status: 403, text: "<html>cf</html>", contentType: "text/html; charset=UTF-8" }, "html", 403],
    [{ status: 200, text: '{"status": tr' }, "malformed", 200],
    [{ status: 200, text: "" }, "malformed", 200],
    [{ status: 404, text: "Not Found" }, "http", 404],
    [{ status: 404, text: JSON.stringify(profile) }, "http", 404],
  ])("%j -> %s", (answer, reason, httpStatus) => {
    const e = thrown(() => decodeAnswer(answer, schema, read));
    expect(e).toBeInstanceOf(UpstreamUnavailable);
    expect(e).toMatchObject({ reason, httpStatus });
  });

  it("a 4xx JSON refusal is a rejection", () => {
    const text = JSON.stringify({ status: false, message: "IP 1.2.3.4 tidak diizinkan" });
    expect(thrown(() => decodeAnswer({ status: 403, text }, schema, read))).toBeInstanceOf(UpstreamRejected);
  });

  it("a UTF-8 BOM before the JSON is tolerated", () => {
    expect(decodeAnswer({ status: 200, text: `\uFEFF${JSON.stringify(profile)}` }, schema, read)).toMatchObject({
      balance: 5,
    });
  });

  it("JSON sent as text/plain is still read", () => {
    expect(decodeAnswer({ status: 200, text: JSON.stringify(profile), contentType: "text/plain" }, schema, read))
      .toMatchObject({ balance: 5, balanceText: "5" });
  });
});

describe("amounts", () => {
  it("accepts numbers and numeric strings (with spaces or 2 decimals)", () => {
    for (const [price, want] of [
      [10150, 10150],
      ["10150", 10150],
      [" 10150 ", 10150],
      ["10150.00", 10150],
      ["0", 0],
    ] as const) {
      expect(ok(prepaidTransactionSchema, { ...tx, price }).price).toBe(want);
    }
  });

  it.each(["abc", "", "1.000", "10.150", "-5", "1e3", null, true, {}])(
    "rejects %j as a price, naming data.price",
    (price) => {
      const e = thrown(() => ok(prepaidTransactionSchema, { ...tx, price }));
      expect(e).toBeInstanceOf(UpstreamUnexpected);
      expect(e).toMatchObject({ field: "data.price" });
    },
  );

  it("a missing amount is named too", () => {
    const { price: _omit, ...rest } = tx;
    expect(thrown(() => ok(prepaidTransactionSchema, rest))).toMatchObject({ field: "data.price" });
  });

  it("profile balance: numeric string -> number, placeholder -> null with text kept", () => {
    expect(ok(profileSchema, { balance: "150000" })).toMatchObject({ balance: 150000, balanceText: "150000" });
    expect(ok(profileSchema, { balance: 7 })).toMatchObject({ balance: 7, balanceText: "7" });
    expect(ok(profileSchema, { balance: "Saldo Anda" })).toMatchObject({ balance: null, balanceText: "Saldo Anda" });
    expect(ok(profileSchema, {})).toMatchObject({ balance: null, balanceText: "", name: "" });
  });

  it("bill periods tolerate placeholder amounts (null), the totals do not", () => {
    const bill = {
      reff_id: "R",
      nomor_pelanggan: "1",
      nama_pelanggan: "N",
      code: "BPJS",
      harga: "50000",
      biaya_admin: "2500",
      total_tagihan: 52500,
      detail: { jumlah_peserta: "2", lembar_tagihan: "1", detail: [{ periode: "202401", nilai_tagihan: "-" }] },
    };
    expect(ok(billInquirySchema, bill)).toStrictEqual({
      reffId: "R",
      customerNo: "1",
      customerName: "N",
      code: "BPJS",
      price: 50000,
      adminFee: 2500,
      total: 52500,
      participants: "2",
      sheets: 1,
      periods: [{ period: "202401", amount: null, admin: null, penalty: null }],
    });
    expect(thrown(() => ok(billInquirySchema, { ...bill, total_tagihan: "x" }))).toMatchObject({
      field: "data.total_tagihan",
    });
    // PHP's empty object `[]` and an absent detail both mean no periods.
    expect(ok(billInquirySchema, { ...bill, detail: [] }).periods).toEqual([]);
  });

  it("a price list skips a malformed item (kept for the log); all malformed fails, naming the index", () => {
    const item = { code: "A", price: "1" };
    const list = ok(prepaidListSchema, [item, { ...item, code: "B", price: "n/a" }]);
    expect(list.map((p) => p.code)).toEqual(["A"]);
    expect(skippedItems(list)).toEqual([{ index: 1, code: "B", problem: "price: expected a numeric amount" }]);
    expect(thrown(() => ok(prepaidListSchema, [{ ...item, price: "n/a" }]))).toMatchObject({
      field: "data[0].price",
    });
    expect(ok(prepaidListSchema, [])).toEqual([]);
  });
});

describe("aliases, placeholders and defaults", () => {
  it("timestamps are WIB; placeholders and absence give null", () => {
    expect(ok(prepaidTransactionSchema, tx).createdAt).toStrictEqual(new Date("2026-01-15T03:00:00Z"));
    expect(ok(prepaidTransactionSchema, { ...tx, created_at: "xxxxxxxx" }).createdAt).toBeNull();
    const { created_at: _omit, ...rest } = tx;
    expect(ok(prepaidTransactionSchema, rest).createdAt).toBeNull();
  });

  it("sn: null or blank -> null, numbers become text", () => {
    expect(ok(prepaidTransactionSchema, { ...tx, sn: "" }).sn).toBeNull();
    expect(ok(prepaidTransactionSchema, { ...tx, sn: 12345 }).sn).toBe("12345");
  });

  it("states are case-insensitive; unknown states fail on data.status", () => {
    expect(ok(prepaidTransactionSchema, { ...tx, status: "Success" }).status).toBe("success");
    expect(ok(prepaidTransactionSchema, { ...tx, status: "processing" }).status).toBe("pending");
    expect(thrown(() => ok(prepaidTransactionSchema, { ...tx, status: "weird" }))).toMatchObject({
      field: "data.status",
    });
    expect(ok(depositCancelSchema, { id: "D", status: "cancelled" }).status).toBe("cancel");
  });

  it("transfer: ref_id is read as reffId, empty detail fields are dropped", () => {
    const t = {
      id: "X",
      ref_id: "mine",
      nama: "A",
      nomor_tujuan: "1",
      nominal: "10000",
      fee: 2000,
      total: "12000",
      status: "pending",
      detail: { email: "", phone: "0812", note: null },
      created_at: "2023-11-17 09:45:41",
    };
    expect(ok(transferSchema, t)).toStrictEqual({
      id: "X",
      reffId: "mine",
      holderName: "A",
      accountNumber: "1",
      amount: 10000,
      fee: 2000,
      total: 12000,
      status: "pending",
      phone: "0812",
      createdAt: wib("2023-11-17 09:45:41"),
    });
  });

  it("deposit: `method` read like `metode`, tambahan absent -> 0, type-specific fields kept", () => {
    const bank = {
      id: "D1",
      reff_id: "R1",
      nominal: 50522,
      tambahan: 522,
      fee: 0,
      get_balance: "50522",
      status: "pending",
      method: "BCA",
      bank: "BCA",
      tujuan: "1234567890",
      atas_nama: "PT X",
      created_at: "2026-01-15 10:00:00",
      expired_at: "2026-01-15 23:59:59",
    };
    expect(ok(depositSchema, bank)).toMatchObject({
      amount: 50522,
      extra: 522,
      credited: 50522,
      method: "BCA",
      bank: "BCA",
      accountNumber: "1234567890",
      accountHolder: "PT X",
      expiresAt: wib("2026-01-15 23:59:59"),
    });
    const { tambahan: _t, ...noExtra } = bank;
    expect(ok(depositSchema, noExtra).extra).toBe(0);
    expect(ok(depositSchema, { ...bank, tambahan: null }).extra).toBe(0);
    expect(thrown(() => ok(depositSchema, { ...bank, tambahan: "abc" }))).toMatchObject({ field: "data.tambahan" });
    expect(ok(depositSchema, { ...bank, url: "https://pay", nomor_va: "8808" })).toMatchObject({
      url: "https://pay",
      vaNumber: "8808",
    });
  });

  it("deposit methods: both spellings, decimal percentages, `aktif`", () => {
    const m = { method: "qris", type: "ewallet", name: "QRIS", min: "1000", max: "5000000", fee: "0", fee_persen: "0.7", status: "aktif" };
    expect(ok(depositMethodListSchema, [m])).toStrictEqual([
      { method: "qris", type: "ewallet", name: "QRIS", min: 1000, max: 5000000, fee: 0, feePercent: 0.7, active: true },
    ]);
    expect(ok(depositMethodListSchema, [{ ...m, metode: "BCA", method: undefined, fee_persen: "1,5", status: "nonaktif" }]))
      .toMatchObject([{ method: "BCA", feePercent: 1.5, active: false }]);
  });

  it("a filtered price list may come back as one object", () => {
    expect(ok(prepaidListSchema, { code: "A", price: 5, status: "empty" })).toStrictEqual([
      { code: "A", name: "", category: "", type: "", provider: "", price: 5, note: "", available: false },
    ]);
  });

  it("postpaid list: layanan -> name, komisi -> commission", () => {
    const p = { code: "PLN", layanan: "PLN Pascabayar", type: "pln", category: "PLN", admin: "2750", komisi: "1000", note: "", status: "available" };
    expect(ok(postpaidListSchema, [p])).toStrictEqual([
      { code: "PLN", name: "PLN Pascabayar", type: "pln", category: "PLN", admin: 2750, commission: 1000, note: "", available: true },
    ]);
  });

  it("postpaid status accepts the bill-payment shape and the prepaid shape", () => {
    expect(ok(billPaymentSchema, { ...tx, layanan: "PLN Pascabayar" })).toStrictEqual({
      id: "T1",
      reffId: "R1",
      customerNo: "0812",
      customerName: "",
      code: "S10",
      price: 10150,
      sn: null,
      status: "pending",
      createdAt: wib("2026-01-15 10:00:00"),
      productName: "PLN Pascabayar",
    });
    expect(
      ok(billPaymentSchema, { id: 9, reff_id: "R", nomor_pelanggan: "55", nama_pelanggan: "B", code: "C", harga: 7, status: "failed" }),
    ).toMatchObject({ id: "9", customerNo: "55", customerName: "B", price: 7, status: "failed", createdAt: null });
  });

  it("account check: bank_code/account_number spellings and states", () => {
    expect(ok(accountCheckSchema, { bank_code: "bca", account_number: "1", status: "INVALID" })).toStrictEqual({
      bankCode: "bca",
      accountNumber: "1",
      holderName: "",
      status: "invalid",
    });
  });

  it("ids must be present and non-empty", () => {
    expect(thrown(() => ok(prepaidTransactionSchema, { ...tx, id: "" }))).toMatchObject({ field: "data.id" });
    expect(ok(bankListSchema, [{ id: 3, bank_code: "bca", bank_name: "BCA", type: "bank" }])[0]?.id).toBe("3");
  });
});
