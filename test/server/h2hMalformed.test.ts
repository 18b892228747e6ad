/**
 * Issue 38's black box: 5,000 malformed requests at /h2h over HTTP, mixed with valid creates: 0
 * purchases twice, 0 wallets below zero, 0 server errors. The requests come from a seeded generator
 * (the same 5,000 on every run): truncated and garbage form encoding, missing and repeated fields,
 * values around the 256-character and 16 KB bounds, wrong types, negative, NaN and overflowing
 * amounts, unicode, wrong methods, unknown paths, wrong content types, a valid key with garbage, and
 * reff_ids used again with another code. Every answer must be the provider's JSON as the bot's own
 * client decodes it: a refusal with a message and a code, or a success in the endpoint's shape.
 */
import { Pool } from "undici";
import { afterEach, beforeEach, expect, it } from "vitest";
import { decodeAnswer } from "../../src/upstream/decode.js";
import { ENDPOINTS } from "../../src/upstream/endpoints.js";
import { UpstreamRejected } from "../../src/upstream/errors.js";
import { billInquirySchema, billPaymentSchema } from "../../src/upstream/schemas/bills.js";
import { depositCancelSchema, depositMethodListSchema, depositSchema, instantDepositSchema } from "../../src/upstream/schemas/deposits.js";
import { postpaidListSchema, prepaidListSchema } from "../../src/upstream/schemas/prices.js";
import { profileSchema } from "../../src/upstream/schemas/profile.js";
import { prepaidTransactionSchema } from "../../src/upstream/schemas/transactions.js";
import { accountCheckSchema, bankListSchema, transferSchema } from "../../src/upstream/schemas/transfers.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import type { World } from "../support/world.js";
import { ANDI, h2hWorld, type H2hWorld } from "../h2h/support.js";
import { random } from "../chaos/schedule.js";

const REQUESTS = 5000;
/** Requests per minute of the injected clock: under a key's 600 a minute, so no answer is a rate refusal. */
const PER_MINUTE = 500;
/** Callers at once: a key's calls in flight (H2H_IN_FLIGHT). */
const AT_ONCE = 8;
const FUNDS = 150_000;

let h: H2hWorld;
let w: World;
let pool: Pool;

beforeEach(async () => {
  h = await h2hWorld({ funds: FUNDS });
  w = h.w;
  pool = new Pool(h.url, { connections: AT_ONCE });
});
afterEach(async () => {
  await pool.close();
  await h.close();
});

interface Req {
  what: string;
  method: string;
  path: string;
  contentType?: string;
  body?: string;
}

const FORM = "application/x-www-form-urlencoded";
const PATHS = Object.values(ENDPOINTS);
/** A few reff_ids, used again and again (with other codes and targets too). */
const REFFS = Array.from({ length: 30 }, (_, i) => `R${i}`);
const BILL_REFFS = ["B0", "B1", "B2", "B3"];
const DEPOSIT_REFFS = ["D0", "D1", "D2", "D3", "D4"];

const encode = (fields: [string, string][]) => fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");

function generator(key: string, codes: string[], seed: number): () => Req {
  const rnd = random(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const chars = (n: number, alphabet: string) => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join("");
  const WEIRD = ["", " ", "0", "-1", "-0", "NaN", "Infinity", "-Infinity", "1e309", "1e9", "0x10", "1.5", "99999999999999999999", "9007199254740993", " 5", "5 ", "+5", "١٢٣", "null", "undefined", "true", "[]", "{}", "%", "%ZZ", "\u0000", "😀", "\u202e0812", "a\u200bb", "<script>", "'; DROP TABLE tx;--", "__proto__", "constructor", "x".repeat(256), "x".repeat(257), "9".repeat(64), "9".repeat(65), "ß".repeat(130)];
  const amount = () => pick(["10000", "50000", "1", "0", "-5", "NaN", "1e9", "999999999999", "9999999999999", "18446744073709551616", "5.5", " 10000 ", "10,000", "Rp10.000", ""]);
  const target = () => pick(["081234567890", "0812", "08123456789012345678901234567890123456789012345678901234567890123456", "+6281234567890", "0812-3456-7890", "٠٨١٢", "081234567890\n", ""]);
  const createFields = (): [string, string][] => {
    const f: [string, string][] = [["api_key", key], ["code", pick(codes)], ["reff_id", pick(REFFS)], ["target", target()]];
    if (rnd() < 0.4) f.push(["limit_price", amount()]);
    return f;
  };
  const garbageFields = (): [string, string][] => {
    const names = ["code", "reff_id", "target", "limit_price", "id", "type", "customer_no", "nominal", "metode", "method", "bank_code", "account_number", "action", "__proto__", "api_key[]", "code[]", "", "&", "="];
    return Array.from({ length: int(8) }, () => [pick(names), rnd() < 0.5 ? pick(WEIRD) : chars(int(80), "abcXYZ019 %&=+._-~\u00e9\u4e2d")] as [string, string]);
  };

  const kinds: [number, () => Req][] = [
    // Valid creates, reff_ids reused with other codes and targets.
    [8, () => ({ what: "create", method: "POST", path: ENDPOINTS.createTransaction, contentType: FORM, body: encode(createFields()) })],
    [2, () => {
      const no = SANDBOX_CUSTOMERS.oneSheet;
      const path = rnd() < 0.5 ? ENDPOINTS.billInquiry : ENDPOINTS.billPay;
      return { what: "bill", method: "POST", path, contentType: FORM, body: encode([["api_key", key], ["code", pick(["PPLN", "PPLN", "BPJS"])], ["reff_id", pick(BILL_REFFS)], ["customer_no", rnd() < 0.8 ? no : target()]]) };
    }],
    [2, () => ({ what: "deposit", method: "POST", path: ENDPOINTS.createDeposit, contentType: FORM, body: encode([["api_key", key], ["reff_id", pick(DEPOSIT_REFFS)], ["nominal", amount()], ["type", pick(["ewallet", "bank", ""])], ["metode", pick(["qris", "QRIS", "qrisfast", "bca", ""])]]) })],
    // A valid key with garbage, on every endpoint.
    [20, () => ({ what: "garbage params", method: "POST", path: pick(PATHS), contentType: FORM, body: encode([["api_key", key], ...garbageFields()]) })],
    // A create with its fields missing, repeated or of the wrong type.
    [10, () => {
      const f = createFields();
      const r = int(4);
      if (r === 0) f.splice(1 + int(3), 1);
      else if (r === 1) f.splice(int(f.length), 0, [pick(["code", "reff_id", "target", "limit_price", "api_key"]), pick(WEIRD)]);
      else if (r === 2) f[1 + int(f.length - 1)]![1] = pick(WEIRD);
      else f.push(["limit_price", pick(WEIRD)]);
      return { what: "create mangled", method: "POST", path: ENDPOINTS.createTransaction, contentType: FORM, body: encode(f) };
    }],
    // Broken form encoding: a valid body cut anywhere, raw bytes, stray escapes.
    [10, () => {
      const whole = encode(createFields());
      const body = pick([
        () => whole.slice(0, int(whole.length)),
        () => `${whole}%`,
        () => `${whole}&limit_price=%E0%A4%A`,
        () => whole.replace(/=/g, pick(["", "==", "%3D", "&"])),
        () => chars(int(300), "%&=+;#?\u0000\u00ff\ud83d\ude00abc"),
        () => `api_key=${key}&${"&".repeat(int(60))}`,
        () => `api_key=${key}&code=S10&${Array.from({ length: 20 + int(40) }, (_, i) => `f${i}=${i}`).join("&")}`,
      ])();
      return { what: "broken form", method: "POST", path: pick(PATHS), contentType: FORM, body };
    }],
    // Near and over the 16 KB bound, and over 256 characters a field.
    [4, () => {
      const size = pick([16 * 1024 - 200, 16 * 1024 - 20, 16 * 1024 + 1, 20_000, 64 * 1024]);
      const field = pick(["code", "reff_id", "target", "pad"]);
      const prefix = `api_key=${key}&${field}=`;
      return { what: "huge", method: "POST", path: pick(PATHS), contentType: FORM, body: prefix + "9".repeat(Math.max(0, size - prefix.length)) };
    }],
    // Not a form: JSON, text, multipart, none.
    [5, () => {
      const contentType = pick(["application/json", "text/plain", "multipart/form-data; boundary=x", "application/xml", undefined, "application/x-www-form-urlencoded; charset=latin1"]);
      const body = pick([JSON.stringify({ api_key: key, code: pick(codes), reff_id: pick(REFFS), target: "081234567890" }), encode(createFields()), "--x\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\n" + key + "\r\n--x--", "<xml/>"]);
      return { what: "content type", method: "POST", path: pick(PATHS), ...(contentType ? { contentType } : {}), body };
    }],
    // Other methods, unknown paths, wrong or no keys.
    [4, () => ({ what: "method", method: pick(["GET", "PUT", "DELETE", "PATCH", "OPTIONS"]), path: pick(PATHS), contentType: FORM, body: encode(createFields()) })],
    [4, () => {
      const path = pick(["/", "/nope", "/transaksi", "/transaksi/create/x", "//transaksi/create", "/TRANSAKSI/CREATE", "/transaksi%2Fcreate", "/get_profile/..", "/deposit/../get_profile", `/${"a".repeat(2000)}`, "/get_profile?api_key=x", "/%00", "/%C3%A9"]);
      return { what: "path", method: "POST", path, contentType: FORM, body: encode(createFields()) };
    }],
    [4, () => {
      const k = pick(["", "x", key.slice(0, -1), key + "x", key.toLowerCase(), ` ${key}`, "DEMO-PPOB-SANDBOX-2026", "a".repeat(300)]);
      return { what: "wrong key", method: "POST", path: pick(PATHS), contentType: FORM, body: encode([["api_key", k], ...createFields().slice(1)]) };
    }],
  ];
  const total = kinds.reduce((s, [n]) => s + n, 0);
  return () => {
    let r = int(total);
    for (const [n, make] of kinds) if ((r -= n) < 0) return make();
    return kinds[0]![1]();
  };
}

/** The schema the bot's client reads a success of `path` with (`type` as the route reads it). */
function schemaOf(path: string, body: string): Parameters<typeof decodeAnswer>[1] | undefined {
  let type = "";
  try {
    type = (new URLSearchParams(body).get("type") ?? "").trim().toLowerCase();
  } catch {
    // a body that is no form has no type
  }
  const byPath: Record<string, Parameters<typeof decodeAnswer>[1]> = {
    [ENDPOINTS.profile]: profileSchema,
    [ENDPOINTS.priceList]: type === "prabayar" ? prepaidListSchema : postpaidListSchema,
    [ENDPOINTS.createTransaction]: prepaidTransactionSchema,
    [ENDPOINTS.transactionStatus]: type === "prabayar" ? prepaidTransactionSchema : billPaymentSchema,
    [ENDPOINTS.billInquiry]: billInquirySchema,
    [ENDPOINTS.billPay]: billPaymentSchema,
    [ENDPOINTS.bankList]: bankListSchema,
    [ENDPOINTS.checkAccount]: accountCheckSchema,
    [ENDPOINTS.createTransfer]: transferSchema,
    [ENDPOINTS.transferStatus]: transferSchema,
    [ENDPOINTS.depositMethods]: depositMethodListSchema,
    [ENDPOINTS.createDeposit]: depositSchema,
    [ENDPOINTS.depositStatus]: depositSchema,
    [ENDPOINTS.cancelDeposit]: depositCancelSchema,
    [ENDPOINTS.instantDeposit]: instantDepositSchema,
  };
  return byPath[path.replace(/\/+$/, "")];
}

it("answers 5,000 malformed requests with the provider's errors: no 5xx, no purchase twice, no wallet below zero", { timeout: 60_000 }, async () => {
  const codes = (await w.upstream.prepaidPriceList(w.demoKey)).filter((p) => p.available).slice(0, 3).map((p) => p.code);
  expect(codes).toHaveLength(3);
  const next = generator(h.key, codes, 38);
  const requests = Array.from({ length: REQUESTS }, next);
  const problems: string[] = [];
  /** The refusals' codes met, and "success". */
  const seen = new Set<number | string>();
  /** Each reff_id's transaction, as every answer that made or found one named it. */
  const idOf = new Map<string, string>();

  async function send(r: Req): Promise<void> {
    const res = await pool.request({ path: `/h2h${r.path}`, method: r.method, headers: r.contentType ? { "content-type": r.contentType } : {}, ...(r.method === "GET" ? {} : { body: r.body ?? "" }) });
    const text = await res.body.text();
    const contentType = res.headers["content-type"];
    const said = `${r.what} ${r.method} ${r.path.slice(0, 40)} ${String(r.body).slice(0, 80)} -> ${res.statusCode} ${text.slice(0, 120)}`;
    if (res.statusCode >= 500) return void problems.push(`5xx: ${said}`);
    if (!String(contentType).includes("application/json")) return void problems.push(`not JSON: ${said}`);
    // The path the server routes: dot segments resolved, no query, no trailing slash.
    const path = new URL(`http://h/h2h${r.path}`).pathname.replace(/^\/h2h/, "").replace(/\/+$/, "");
    const schema = schemaOf(path, r.body ?? "");
    try {
      const data = decodeAnswer({ status: res.statusCode, text, contentType: String(contentType) }, schema ?? profileSchema, { endpoint: path, create: false });
      seen.add("success");
      if (!schema || r.method !== "POST") return void problems.push(`a success where none can be: ${said}`);
      if (path === ENDPOINTS.createTransaction) {
        const tx = data as { id: string; reffId: string };
        const reff = (new URLSearchParams(r.body).get("reff_id") ?? "").trim();
        if (tx.reffId !== reff) problems.push(`another reff_id answered: ${said}`);
        if ((idOf.get(reff) ?? tx.id) !== tx.id) problems.push(`a second transaction for ${reff}: ${said}`);
        idOf.set(reff, tx.id);
      }
    } catch (err) {
      if (!(err instanceof UpstreamRejected) || !err.providerMessage || err.providerCode === undefined) problems.push(`not the provider's shape (${String(err)}): ${said}`);
      else seen.add(err.providerCode);
    }
  }

  for (let at = 0; at < requests.length; at += PER_MINUTE) {
    const chunk = requests.slice(at, at + PER_MINUTE);
    let i = 0;
    await Promise.all(Array.from({ length: AT_ONCE }, async () => {
      while (i < chunk.length) await send(chunk[i++]!);
    }));
    await w.clock.advance(60_000);
  }

  expect(problems.slice(0, 10)).toEqual([]);
  // Every kind of refusal was reached, and the valid calls among them were answered.
  for (const code of [400, 401, 402, 404, 405, 413, 422, "success"]) expect(seen, String(code)).toContain(code);
  // Each reff_id bought at most once at Rina's provider, whatever was sent with it.
  for (const path of [ENDPOINTS.createTransaction, ENDPOINTS.billPay, ENDPOINTS.createDeposit, ENDPOINTS.createTransfer]) {
    const refs = w.sandbox.calls(path).map((c) => c.body.reff_id ?? c.body.ref_id);
    expect(new Set(refs).size, path).toBe(refs.length);
  }
  expect(w.sandbox.calls(ENDPOINTS.createTransaction).length).toBeGreaterThan(0);
  expect(idOf.size).toBeLessThanOrEqual(REFFS.length);
  const wallet = await w.app.deps.wallets.view(ANDI);
  expect(wallet.balance).toBeGreaterThanOrEqual(0);
  // Each record debited at most once, and the entries add up to the balance, never below zero on the way.
  await w.app.deps.wallets.idle();
  const entries = await w.app.deps.wallets.entries(ANDI, { limit: 1000 });
  const debited = entries.filter((e) => e.kind === "purchase").map((e) => e.txRef);
  expect(new Set(debited).size).toBe(debited.length);
  expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe((await w.app.deps.wallets.view(ANDI)).balance);
  for (const e of entries) expect(e.balance).toBeGreaterThanOrEqual(0);
  expect(wallet.available).toBeGreaterThanOrEqual(0);
  expect(wallet.held).toBeGreaterThanOrEqual(0);
});
