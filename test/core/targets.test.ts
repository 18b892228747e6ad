import { describe, expect, it } from "vitest";
import { normalisePhone, operatorOfNumber, targetKind, validateTarget } from "../../src/bot/targets.js";
import type { PrepaidProduct } from "../../src/upstream/types.js";

const product = (p: Partial<PrepaidProduct>): PrepaidProduct => ({
  code: "X",
  name: "Product",
  category: "Pulsa",
  type: "Umum",
  provider: "TELKOMSEL",
  price: 10_000,
  note: "",
  available: true,
  ...p,
});

const tsel = product({ code: "S10", name: "Telkomsel 10.000", provider: "TELKOMSEL" });
const isatData = product({ code: "ISAT-DATA-3GB", name: "Indosat Data 3 GB / 30 Hari", category: "Data", provider: "INDOSAT" });
const xl = product({ code: "X10", name: "XL 10.000", provider: "XL" });
const pln = product({ code: "PLN20", name: "PLN 20.000", category: "PLN", provider: "PLN", note: "masukkan nomor meter/id pelanggan" });
const dana = product({ code: "DANA10", name: "DANA 10.000", category: "E-Money", provider: "DANA" });
const ml = product({
  code: "ML86",
  name: "Mobile Legends 86 Diamonds",
  category: "Games",
  provider: "MOBILE LEGENDS",
  note: "Masukkan ID + Server tanpa spasi, contoh ID 12345678 server 1234 ditulis 123456781234",
});
const mlParen = { ...ml, note: "Masukkan ID dan Server" };
const ff = product({ code: "FF70", name: "Free Fire 70 Diamonds", category: "Games", provider: "FREE FIRE", note: "Masukkan ID Player" });
const voucher = product({ code: "HOKW", name: "Honor of Kings Weekly Card", category: "Voucher", provider: "Honor of Kings", note: "Honor of Kings Weekly Card" });

describe("phone numbers", () => {
  it("accepts 08…, 628…, +628… with spaces and dashes, normalised to 08…", () => {
    expect(normalisePhone("081234567890")).toBe("081234567890");
    expect(normalisePhone("6281234567890")).toBe("081234567890");
    expect(normalisePhone("+62 812-3456-7890")).toBe("081234567890");
    expect(normalisePhone(" 0812 3456 7890 ")).toBe("081234567890");
    expect(normalisePhone("(0812) 3456.7890")).toBe("081234567890");
  });

  it("refuses what is not a mobile number", () => {
    for (const bad of ["0812", "02112345678", "0812345678901234", "08123abc4567", "", "+1 555 0100"]) {
      expect(normalisePhone(bad), bad).toBeUndefined();
    }
  });

  it("knows the operator of a prefix", () => {
    expect(operatorOfNumber("081234567890")).toBe("telkomsel");
    expect(operatorOfNumber("085212345678")).toBe("telkomsel");
    expect(operatorOfNumber("085712345678")).toBe("indosat");
    expect(operatorOfNumber("087712345678")).toBe("xl");
    expect(operatorOfNumber("089612345678")).toBe("tri");
    expect(operatorOfNumber("088112345678")).toBe("smartfren");
    expect(operatorOfNumber("083812345678")).toBe("axis");
    expect(operatorOfNumber("081012345678")).toBeUndefined();
  });
});

describe("validateTarget", () => {
  it("normalises a phone number of the product's operator", () => {
    expect(validateTarget(tsel, "+62 812-3456-7890")).toEqual({ ok: true, value: "081234567890" });
    expect(validateTarget(isatData, "6285712345678")).toEqual({ ok: true, value: "085712345678" });
    expect(validateTarget(xl, "083812345678")).toEqual({ ok: true, value: "083812345678" }); // Axis is XL's network
  });

  it("refuses a number of another operator with both operators named", () => {
    const r = validateTarget(tsel, "085712345678");
    expect(r).toMatchObject({ ok: false, error: "target-phone-operator" });
    expect(r.ok ? {} : r.vars).toEqual({ number: "085712345678", numberOperator: "Indosat", productOperator: "Telkomsel" });
  });

  it("refuses what is not a phone number for phone products", () => {
    expect(validateTarget(tsel, "12345")).toMatchObject({ ok: false, error: "target-phone-invalid" });
    expect(validateTarget(tsel, "   ")).toMatchObject({ ok: false, error: "target-empty" });
    expect(validateTarget(tsel, "0812\n3456")).toMatchObject({ ok: false, error: "target-one-line" });
  });

  it("takes any operator's number for e-money", () => {
    expect(targetKind(dana)).toBe("emoney");
    expect(validateTarget(dana, "+6289612345678")).toEqual({ ok: true, value: "089612345678" });
    expect(validateTarget(dana, "dana@me")).toMatchObject({ ok: false, error: "target-phone-invalid" });
  });

  it("takes 10–13 digit PLN meter or customer ids", () => {
    expect(targetKind(pln)).toBe("pln");
    expect(validateTarget(pln, "5301 1234 5678")).toEqual({ ok: true, value: "530112345678" });
    expect(validateTarget(pln, "12345678901")).toEqual({ ok: true, value: "12345678901" });
    expect(validateTarget(pln, "123456789")).toMatchObject({ ok: false, error: "target-pln-invalid" });
    expect(validateTarget(pln, "12345678901234")).toMatchObject({ ok: false, error: "target-pln-invalid" });
    expect(validateTarget(pln, "53011234567a")).toMatchObject({ ok: false, error: "target-pln-invalid" });
  });

  it("understands id and server when the note asks for a server", () => {
    expect(targetKind(ml)).toBe("game");
    // This note asks for both written together.
    for (const typed of ["12345678 1234", "12345678(1234)", "12345678 (1234)", "12345678|1234", "123456781234"]) {
      expect(validateTarget(ml, typed), typed).toEqual({ ok: true, value: "123456781234" });
    }
    expect(validateTarget(mlParen, "12345678|1234")).toEqual({ ok: true, value: "12345678(1234)" });
    expect(validateTarget(ml, "player one")).toMatchObject({ ok: false, error: "target-game-server-invalid" });
  });

  it("takes one line of reasonable text for other games and vouchers", () => {
    expect(validateTarget(ff, "  123456789 ")).toEqual({ ok: true, value: "123456789" });
    expect(validateTarget(voucher, "Budi_01")).toEqual({ ok: true, value: "Budi_01" });
    expect(validateTarget(ff, "12")).toMatchObject({ ok: false, error: "target-text-length" });
    expect(validateTarget(ff, "x".repeat(41))).toMatchObject({ ok: false, error: "target-text-length" });
    expect(validateTarget(ff, "<b>123</b>")).toMatchObject({ ok: false, error: "target-text-chars" });
  });
});
