/**
 * QR images rendered locally from a payload (QRIS `qr_string`): the provider's hosted `qr_image`
 * sits behind Cloudflare and may not load for Telegram's servers.
 */

/** A PNG of the QR code for `text`: large enough to scan from a phone screen, with a quiet zone. */
export async function qrPng(text: string): Promise<Buffer> {
  // Loaded on first use (a deposit's QRIS), not at start-up.
  const { default: QRCode } = await import("qrcode");
  return QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 4, width: 640 });
}
