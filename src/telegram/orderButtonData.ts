/**
 * The buttons of a shop order (callback data, within Telegram's 64 bytes): the customer's "Cek
 * pembayaran", cancel, another product and refund; the owner's one tap that opens the refund transfer.
 */
/** The shop orders' family (buttonData.ts buttonFamilies). */
export const ORDER_BUTTON_FAMILY = { name: "shop orders", prefixes: ["so"] } as const;

const REF = "(SO\\d{6}[A-Z2-9]{8})";
const CODE = "([A-Za-z0-9_.-]{1,40})";

export type OrderButton =
  | { act: "check" | "cancel" | "refund" | "payout"; orderRef: string }
  | { act: "alt"; orderRef: string; code: string };

const PATTERN = new RegExp(`^so:(check|cancel|refund|payout):${REF}$|^so:alt:${REF}:${CODE}$`);

export function orderButton(b: OrderButton): string {
  return b.act === "alt" ? `so:alt:${b.orderRef}:${b.code}` : `so:${b.act}:${b.orderRef}`;
}

export function readOrderButton(data: string): OrderButton | undefined {
  const m = PATTERN.exec(data);
  if (!m) return undefined;
  if (m[1] && m[2]) return { act: m[1] as "check" | "cancel" | "refund" | "payout", orderRef: m[2] };
  return m[3] && m[4] ? { act: "alt", orderRef: m[3], code: m[4] } : undefined;
}
