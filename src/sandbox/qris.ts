/**
 * Dynamic QRIS payloads (EMVCo merchant-presented mode, Indonesian profile). The bot renders its QR
 * image from `qr_string`, so the sandbox must produce payloads a real wallet parser would accept:
 * proper TLV lengths and a CRC16-CCITT in tag 63.
 */

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) over UTF-8 bytes. */
export function crc16ccitt(text: string): number {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

function crcHex(text: string): string {
  return crc16ccitt(text).toString(16).toUpperCase().padStart(4, "0");
}

/** One TLV field: 2-digit tag, 2-digit length, value. */
export function tlv(tag: string, value: string): string {
  if (value.length > 99) throw new Error(`QRIS tag ${tag} too long`);
  return tag + String(value.length).padStart(2, "0") + value;
}

export interface QrisInput {
  amount: number;
  /** Goes in tag 62.05 (reference label) so the payment can be matched to the deposit. */
  reference: string;
  merchantName?: string;
  city?: string;
  /** 18-digit merchant PAN: 936009xx issuer prefix + merchant digits. */
  merchantPan?: string;
  /** National merchant id (NMID) as registered with QRIS. */
  nmid?: string;
}

export function buildQris(input: QrisInput): string {
  const pan = input.merchantPan ?? "936009140000012345";
  const nmid = input.nmid ?? "ID1025123456789";
  const body =
    tlv("00", "01") +
    tlv("01", "12") + // 12 = dynamic (one amount, one payment)
    tlv("26", tlv("00", "ID.CO.SANDBOXPAY.WWW") + tlv("01", pan) + tlv("02", nmid) + tlv("03", "UMI")) +
    tlv("51", tlv("00", "ID.CO.QRIS.WWW") + tlv("02", nmid) + tlv("03", "UMI")) +
    tlv("52", "5999") +
    tlv("53", "360") + // ISO 4217 numeric for IDR
    tlv("54", String(Math.round(input.amount))) +
    tlv("58", "ID") +
    tlv("59", (input.merchantName ?? "SANDBOX PPOB").slice(0, 25)) +
    tlv("60", (input.city ?? "JAKARTA PUSAT").slice(0, 15)) +
    tlv("61", "10110") +
    tlv("62", tlv("05", input.reference.slice(0, 25)) + tlv("07", "SANDBOX01")) +
    "6304";
  return body + crcHex(body);
}

/** Splits a TLV string into tag -> value (top level only). Returns null when lengths do not add up. */
export function parseTlv(payload: string): Map<string, string> | null {
  const out = new Map<string, string>();
  let i = 0;
  while (i < payload.length) {
    const tag = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(tag) || !Number.isInteger(len) || i + 4 + len > payload.length) return null;
    out.set(tag, payload.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

/** True when tag 63 is last and holds the CRC of everything before its value. */
export function verifyQrisCrc(payload: string): boolean {
  const m = /^(.*6304)([0-9A-F]{4})$/s.exec(payload);
  return m !== null && crcHex(m[1] ?? "") === m[2];
}
