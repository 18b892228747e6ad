/**
 * The shop settings an order needs, read through one function so the orders do not depend on how
 * the shop's settings are kept (domain/shop/settings.ts, `ShopSettings.get(owner)`).
 */
export interface OrderShopSettings {
  feePayer: "customer" | "reseller";
  /** A paid QRIS may be released at once (for the provider's fee) when the balance is short. */
  instantRelease: boolean;
  /** Unpaid QRIS deposits the shop may open in one WIB day. */
  dailyUnpaidCap: number;
}

export const DEFAULT_ORDER_SETTINGS: OrderShopSettings = { feePayer: "customer", instantRelease: false, dailyUnpaidCap: 50 };

/** Anything with the settings service's `get` (ctx.deps.shop), or nothing: the defaults. */
export interface ShopSettingsReader {
  get(owner: number): Promise<Readonly<Partial<OrderShopSettings>>>;
}

export async function orderSettingsOf(reader: ShopSettingsReader | undefined, owner: number): Promise<OrderShopSettings> {
  const s = reader ? await reader.get(owner) : {};
  return {
    feePayer: s.feePayer ?? DEFAULT_ORDER_SETTINGS.feePayer,
    instantRelease: s.instantRelease ?? DEFAULT_ORDER_SETTINGS.instantRelease,
    dailyUnpaidCap: s.dailyUnpaidCap ?? DEFAULT_ORDER_SETTINGS.dailyUnpaidCap,
  };
}
