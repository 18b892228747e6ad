import { describe, expect, it } from "vitest";
import { buildQris, crc16ccitt, parseTlv, verifyQrisCrc } from "../../src/sandbox/index.js";

describe("crc16ccitt", () => {
  it("matches the CRC-16/CCITT-FALSE check values", () => {
    expect(crc16ccitt("123456789")).toBe(0x29b1); // the catalogue check value
    expect(crc16ccitt("")).toBe(0xffff); // init, nothing fed
    expect(crc16ccitt("A")).toBe(0xb915);
  });
});

describe("buildQris", () => {
  const payload = buildQris({ amount: 50000, reference: "DEP123ABC" });
  const tags = parseTlv(payload)!;

  it("is a dynamic EMVCo payload with consistent TLV lengths", () => {
    expect(payload.startsWith("000201010212")).toBe(true);
    expect(tags).not.toBeNull();
    expect(tags.get("53")).toBe("360");
    expect(tags.get("54")).toBe("50000");
    expect(tags.get("58")).toBe("ID");
    expect(tags.get("59")).toBeTruthy();
    expect(tags.get("60")).toBeTruthy();
    expect(tags.get("52")).toMatch(/^\d{4}$/);
    const merchant = parseTlv(tags.get("26")!)!;
    expect(merchant.get("00")).toMatch(/^ID\.CO\..+\.WWW$/);
    expect(parseTlv(tags.get("51")!)!.get("00")).toBe("ID.CO.QRIS.WWW");
    expect(parseTlv(tags.get("62")!)!.get("05")).toBe("DEP123ABC");
    expect([...tags.keys()].at(-1)).toBe("63");
  });

  it("carries a CRC over everything up to and including 6304", () => {
    expect(verifyQrisCrc(payload)).toBe(true);
    const crc = crc16ccitt(payload.slice(0, -4)).toString(16).toUpperCase().padStart(4, "0");
    expect(payload.slice(-8)).toBe(`6304${crc}`);
    // One changed digit in the amount breaks it.
    expect(verifyQrisCrc(payload.replace("540550000", "540550001"))).toBe(false);
  });
});
