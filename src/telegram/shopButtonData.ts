/**
 * Callback data of the shop's buttons: the customer's (`sf:`) and the owner's online-shop settings
 * (`sh:`; the orders' own buttons are `so:`). Each shape decodes only what a real button carries;
 * anything else is undefined (stale or forged data), and the customer gate answers it as expired.
 * All stay within Telegram's 64 bytes.
 */
/** The shop's two families (buttonData.ts buttonFamilies): no other family's data may start so. */
export const SHOP_BUTTON_FAMILIES = [
  { name: "shop: the customer's", prefixes: ["sf"] },
  { name: "shop: the owner's settings", prefixes: ["sh"] },
] as const;

export interface ShopButton<F> {
  encode(fields: F): string;
  decode(data: string): F | undefined;
}

const CAT = "[A-Za-z0-9-]{1,16}";
const PRODUCT = "#[A-Za-z0-9]{10}|[A-Za-z0-9._-]{1,40}";
const PAGE = "\\d{1,4}";
/** Longest search a paging button carries (bytes). */
export const SHOP_QUERY_MAX_BYTES = 40;

function fixed(data: string): ShopButton<Record<string, never>> {
  return { encode: () => data, decode: (d) => (d === data ? {} : undefined) };
}

function one<K extends string>(prefix: string, name: K, pattern: string): ShopButton<Record<K, string>> {
  const re = new RegExp(`^${prefix}:(${pattern})$`);
  return {
    encode: (f) => {
      const data = `${prefix}:${f[name]}`;
      if (!re.test(data)) throw new Error(`shop button: ${JSON.stringify(data)} is not valid`);
      return data;
    },
    decode: (d) => {
      const m = re.exec(d);
      return m ? ({ [name]: m[1]! } as Record<K, string>) : undefined;
    },
  };
}

const category: ShopButton<{ cat: string; page: number }> = {
  encode: ({ cat, page }) => {
    if (!new RegExp(`^${CAT}$`).test(cat) || !Number.isSafeInteger(page) || page < 0 || page > 9999) throw new Error("shop button: bad category page");
    return `sf:c:${cat}:${page}`;
  },
  decode: (d) => {
    const m = new RegExp(`^sf:c:(${CAT}):(${PAGE})$`).exec(d);
    return m ? { cat: m[1]!, page: Number(m[2]) } : undefined;
  },
};

const okQuery = (q: string) => q.length > 0 && Buffer.byteLength(q, "utf8") <= SHOP_QUERY_MAX_BYTES && !/[\n\r]/.test(q);
const search: ShopButton<{ page: number; query: string }> = {
  encode: ({ page, query }) => {
    if (!okQuery(query) || !Number.isSafeInteger(page) || page < 0 || page > 9999) throw new Error("shop button: bad search page");
    return `sf:s:${page}:${query}`;
  },
  decode: (d) => {
    const m = new RegExp(`^sf:s:(${PAGE}):(.+)$`, "s").exec(d);
    return m && okQuery(m[2]!) ? { page: Number(m[1]), query: m[2]! } : undefined;
  },
};

export const shopButtons = {
  // The customer's.
  home: fixed("sf:h"),
  category,
  search,
  product: one("sf:p", "product", PRODUCT),
  pay: one("sf:pay", "nonce", "[a-z0-9]{8}"),
  cancel: fixed("sf:x"),
  orders: fixed("sf:o"),
  contact: fixed("sf:k"),
  // The owner's online-shop settings.
  settings: fixed("sh:m"),
  enable: one("sh:e", "on", "on|off"),
  pause: one("sh:p", "on", "on|off"),
  feePayer: one("sh:f", "payer", "customer|reseller"),
  payStep: one("sh:r", "step", "1|100|500|1000"),
  instantRelease: one("sh:i", "on", "on|off"),
  categories: fixed("sh:c"),
  categoryToggle: one("sh:ct", "cat", `${CAT}|\\*`),
  operators: fixed("sh:o"),
  operatorToggle: one("sh:ot", "op", "[a-z]{1,12}|\\*"),
  link: fixed("sh:l"),
  newLink: fixed("sh:n"),
  newLinkYes: fixed("sh:ny"),
} as const;

/** Whether data is one of the customer's shop buttons. */
export function isShopfrontData(data: string): boolean {
  return data.startsWith("sf:");
}
