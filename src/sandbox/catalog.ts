/**
 * The sandbox's product catalogue: realistic Indonesian prepaid products (pulsa, data, PLN tokens,
 * game vouchers, e-money) and postpaid billers, in the provider's wire shape (prices as numeric
 * strings). Prices sit slightly above face value, as a reseller's cost does.
 */

export interface PrepaidProductDef {
  code: string;
  name: string;
  category: string;
  type: string;
  provider: string;
  price: number;
  note: string;
  status: "available" | "empty";
  img_url: string;
}

export interface PostpaidProductDef {
  code: string;
  type: string;
  category: string;
  layanan: string;
  admin: number;
  komisi: number;
  note: string;
  status: "available" | "empty";
}

const img = (slug: string) => `https://sandbox.invalid/img/${slug}.png`;
/** "10.500": id-ID grouping without depending on the runtime's ICU data. */
export const rupiah = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ".");

/** Products that start out of stock, so "empty" handling can be tried without setup. */
export const EMPTY_AT_START = new Set(["I5", "AX50", "SF-DATA-30GB", "ML878", "FF720", "GOPAY25", "SHOPEEPAY100"]);

function product(p: Omit<PrepaidProductDef, "status" | "img_url">, slug: string): PrepaidProductDef {
  return { ...p, status: EMPTY_AT_START.has(p.code) ? "empty" : "available", img_url: img(slug) };
}

// [code prefix, provider, display name, face values in thousands, flat margin]
const PULSA: [string, string, string, number[], number][] = [
  ["S", "TELKOMSEL", "Telkomsel", [5, 10, 20, 25, 50, 100], 350],
  ["I", "INDOSAT", "Indosat", [5, 10, 20, 25, 50, 100], 175],
  ["X", "XL", "XL", [5, 10, 25, 50, 100], 225],
  ["T", "TRI", "Tri", [5, 10, 20, 50, 100], 125],
  ["SM", "SMARTFREN", "Smartfren", [5, 10, 20, 50, 100], 75],
  ["AX", "AXIS", "Axis", [5, 10, 25, 50], 150],
];

/**
 * Second routes to a face value (another code for the same thing, as providers list them): a product
 * that starts empty has a way out to try. [code, the product it stands in for, name, extra cost]
 */
const SECOND_ROUTES: [string, string, string, number][] = [["AX50-J2", "AX50", "Axis 50.000 Jalur 2", 400]];

// [code prefix, provider, display name, [GB, days, price]]
const DATA: [string, string, string, [number, number, number][]][] = [
  ["TSEL-DATA", "TELKOMSEL", "Telkomsel", [[1, 30, 19850], [2, 30, 27350], [3, 30, 34200], [5, 30, 52500], [10, 30, 78500], [25, 30, 125300]]],
  ["ISAT-DATA", "INDOSAT", "Indosat", [[1, 30, 12650], [3, 30, 26100], [7, 30, 47250], [10, 30, 58507], [20, 30, 89400]]],
  ["XL-DATA", "XL", "XL", [[1, 30, 11575], [3, 30, 25450], [6, 30, 41100], [12, 30, 69550]]],
  ["TRI-DATA", "TRI", "Tri", [[1, 30, 9850], [3, 30, 21075], [8, 30, 38500], [15, 30, 61550]]],
  ["SF-DATA", "SMARTFREN", "Smartfren", [[1, 7, 8925], [6, 30, 30500], [16, 30, 57550], [30, 30, 91500]]],
];

const ML_DIAMONDS: [number, number][] = [
  [5, 1525], [12, 3610], [28, 8050], [36, 10225], [59, 16850], [74, 20550], [85, 23525], [170, 47050],
  [222, 61150], [257, 70525], [344, 94100], [429, 117250], [514, 140575], [706, 190600], [878, 236200],
];
const FF_DIAMONDS: [number, number][] = [[5, 925], [12, 1875], [50, 7325], [70, 9550], [140, 18725], [355, 46550], [720, 92575]];
const PUBG_UC: [number, number][] = [[60, 14525], [325, 72550], [660, 143100]];

// [code prefix, provider, display name, face values in thousands, admin on top]
const EMONEY: [string, string, string, number[], number][] = [
  ["DANA", "DANA", "DANA", [10, 20, 25, 50, 100, 200], 925],
  ["OVO", "OVO", "OVO", [10, 20, 50, 100, 200], 1150],
  ["GOPAY", "GOPAY", "GoPay", [10, 20, 25, 50, 100], 1075],
  ["SHOPEEPAY", "SHOPEEPAY", "ShopeePay", [10, 20, 50, 100], 1025],
];

function buildPrepaid(): PrepaidProductDef[] {
  const list: PrepaidProductDef[] = [];
  for (const [prefix, provider, label, faces, margin] of PULSA) {
    for (const k of faces) {
      const face = k * 1000;
      list.push(product({
        code: `${prefix}${k}`, name: `${label} ${rupiah(face)}`, category: "Pulsa", type: "Umum", provider,
        price: face + margin + k * 15, note: `Pulsa ${label} Rp ${rupiah(face)}, masukkan nomor HP`,
      }, provider.toLowerCase()));
    }
  }
  for (const [code, of, name, extra] of SECOND_ROUTES) {
    const first = list.find((p) => p.code === of)!;
    list.push({ ...first, code, name, price: first.price + extra, status: "available" });
  }
  for (const [prefix, provider, label, packs] of DATA) {
    for (const [gb, days, price] of packs) {
      list.push(product({
        code: `${prefix}-${gb}GB`, name: `${label} Data ${gb} GB / ${days} Hari`, category: "Data", type: "Umum",
        provider, price, note: `Kuota ${gb} GB berlaku ${days} hari, masukkan nomor HP`,
      }, provider.toLowerCase()));
    }
  }
  for (const k of [20, 50, 100, 200, 500, 1000]) {
    const face = k * 1000;
    list.push(product({
      code: `PLN${k}`, name: `PLN ${rupiah(face)}`, category: "PLN", type: "Umum", provider: "PLN",
      price: face + 113, note: "masukkan nomor meter/id pelanggan",
    }, "pln"));
  }
  for (const [n, price] of ML_DIAMONDS) {
    list.push(product({
      code: `ML${n}`, name: `Mobile Legends ${n} Diamonds`, category: "Games", type: "Umum", provider: "MOBILE LEGENDS",
      price, note: "Masukkan ID + Server tanpa spasi, contoh ID 12345678 server 1234 ditulis 123456781234",
    }, "mobile-legends"));
  }
  list.push(product({
    code: "MLWDP", name: "Mobile Legends Weekly Diamond Pass", category: "Games", type: "Membership",
    provider: "MOBILE LEGENDS", price: 27650, note: "Masukkan ID + Server tanpa spasi",
  }, "mobile-legends"));
  for (const [n, price] of FF_DIAMONDS) {
    list.push(product({
      code: `FF${n}`, name: `Free Fire ${n} Diamonds`, category: "Games", type: "Umum", provider: "FREE FIRE",
      price, note: "Masukkan ID Player",
    }, "free-fire"));
  }
  for (const [n, price] of PUBG_UC) {
    list.push(product({
      code: `PUBG${n}`, name: `PUBG Mobile ${n} UC`, category: "Games", type: "Umum", provider: "PUBG MOBILE",
      price, note: "Masukkan ID Player",
    }, "pubg-mobile"));
  }
  list.push(product({
    code: "HOKW", name: "Honor of Kings Weekly Card", category: "Games", type: "Membership",
    provider: "Honor of Kings", price: 12325, note: "Honor of Kings Weekly Card",
  }, "honor-of-kings"));
  for (const [prefix, provider, label, faces, admin] of EMONEY) {
    for (const k of faces) {
      const face = k * 1000;
      list.push(product({
        code: `${prefix}${k}`, name: `${label} ${rupiah(face)}`, category: "E-Money", type: "Umum", provider,
        price: face + admin, note: `Saldo ${label} Rp ${rupiah(face)}, masukkan nomor HP terdaftar di ${label}`,
      }, provider.toLowerCase()));
    }
  }
  return list;
}

/** A fresh copy per sandbox: setPrice/setProductStatus mutate it. */
export function prepaidCatalog(): Map<string, PrepaidProductDef> {
  return new Map(buildPrepaid().map((p) => [p.code, p]));
}

export function postpaidCatalog(): Map<string, PostpaidProductDef> {
  const list: PostpaidProductDef[] = [
    { code: "PPLN", type: "pln", category: "PLN Pascabayar", layanan: "PLN Pascabayar", admin: 2750, komisi: 1137, note: "Masukkan ID pelanggan PLN (12 digit)", status: "available" },
    { code: "BPJS", type: "bpjs", category: "BPJS", layanan: "BPJS Kesehatan", admin: 2500, komisi: 1000, note: "Masukkan nomor VA keluarga (diawali 88888)", status: "available" },
    { code: "PDAMSBY", type: "pdam", category: "PDAM", layanan: "PDAM Surya Sembada Kota Surabaya", admin: 2500, komisi: 800, note: "Masukkan nomor sambungan", status: "available" },
    { code: "PDAMBDG", type: "pdam", category: "PDAM", layanan: "PDAM Tirtawening Kota Bandung", admin: 2500, komisi: 800, note: "Masukkan nomor sambungan", status: "available" },
    { code: "PDAMJKT", type: "pdam", category: "PDAM", layanan: "PAM Jaya DKI Jakarta", admin: 2500, komisi: 700, note: "Masukkan nomor pelanggan", status: "empty" },
    { code: "INDIHOME", type: "internet", category: "Internet", layanan: "Telkom IndiHome", admin: 2500, komisi: 1500, note: "Masukkan nomor pelanggan IndiHome", status: "available" },
    { code: "HALO", type: "hp", category: "Pascabayar HP", layanan: "Telkomsel Halo", admin: 2500, komisi: 1000, note: "Masukkan nomor HP Halo", status: "available" },
    { code: "TELKOM", type: "telepon", category: "Telepon", layanan: "Telkom Telepon Rumah", admin: 2500, komisi: 1000, note: "Masukkan kode area + nomor telepon", status: "available" },
  ];
  return new Map(list.map((p) => [p.code, p]));
}
