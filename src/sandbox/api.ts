/**
 * The 15 endpoints: read form params, call the domain, answer in the provider's exact wire shape
 * (string `status` on two endpoints, numeric strings where the real payloads have them).
 */
import { formatWib as formatAt } from "../tools/time.js";
import { ENDPOINTS } from "../upstream/endpoints.js";
import { required, Refusal, type Account, type Core } from "./state.js";
import type { DepositRec, Deposits } from "./deposits.js";
import { methodEntry } from "./payments.js";
import type { BillPaymentTx, PrepaidTx, Sales, TransferTx } from "./sales.js";

export type Params = Record<string, string>;
type Handler = (acc: Account, p: Params) => unknown;

export const KNOWN_PATHS: ReadonlySet<string> = new Set(Object.values(ENDPOINTS));

const ok = (data: unknown, code = 200) => ({ status: true, data, code });

export function prepaidData(t: PrepaidTx) {
  return {
    id: t.id, reff_id: t.reffId, layanan: t.layanan, code: t.code, target: t.target,
    price: String(t.price), sn: t.sn, status: t.status, created_at: formatAt(t.createdAt),
  };
}

/** Payment result (2.3) plus `id`, which status lookups need. */
export function paymentData(t: BillPaymentTx) {
  return {
    id: t.id, reff_id: t.reffId, nomor_pelanggan: t.customerNo, nama_pelanggan: t.name, code: t.code,
    harga: String(t.harga), sn: t.sn, status: t.status, created_at: formatAt(t.createdAt),
  };
}

function transferData(t: TransferTx, forStatus: boolean) {
  // Create sends fee as a number, status as a string; nominal is a string in both (real payloads).
  return {
    id: t.id, reff_id: t.reffId, nama: t.nama, nomor_tujuan: t.nomorTujuan, nominal: String(t.nominal),
    fee: forStatus ? String(t.fee) : t.fee, total: t.total, status: t.status,
    ...(forStatus ? { bank_code: t.bankCode } : {}),
    detail: { email: t.email, phone: t.phone, note: t.note }, created_at: formatAt(t.createdAt),
  };
}

function depositCreateData(d: DepositRec) {
  return {
    id: d.id, reff_id: d.reffId, nominal: d.nominal, tambahan: d.tambahan, fee: d.fee, get_balance: d.getBalance,
    ...d.extra, status: d.status, created_at: formatAt(d.createdAt), expired_at: formatAt(d.expiresAt),
  };
}

function depositStatusData(d: DepositRec) {
  // Every amount a string, and `metode` as the method's display name, as the real status payload.
  return {
    id: d.id, reff_id: d.reffId, nominal: String(d.nominal), tambahan: String(d.tambahan), fee: String(d.fee),
    get_balance: String(d.getBalance), metode: d.method.name, status: d.status, created_at: formatAt(d.createdAt),
  };
}

/** The callback the provider posts when `rec` changed (docs/provider.md, "Callbacks"). */
export function callbackBody(rec: PrepaidTx | BillPaymentTx | TransferTx | DepositRec): { event: string; status: string; data: unknown } {
  switch (rec.kind) {
    case "prabayar":
      return { event: "transaksi", status: rec.status, data: prepaidData(rec) };
    case "pascabayar":
      return { event: "transaksi.pascabayar", status: rec.status, data: paymentData(rec) };
    case "transfer": {
      // The published transfer callback has no total.
      const { total: _total, ...data } = transferData(rec, true);
      return { event: "transfer", status: rec.status, data };
    }
    case "deposit":
      return { event: "deposit", status: rec.status, data: depositStatusData(rec) };
  }
}

export function createApi(core: Core, sales: Sales, deposits: Deposits) {
  const routes: Record<string, Handler> = {
    [ENDPOINTS.profile]: (a) => ({
      status: "true",
      message: "Data retrieved successfully",
      data: { name: a.name, username: a.username, email: a.email, phone: a.phone, balance: String(a.balance), status: "active" },
    }),

    [ENDPOINTS.priceList]: (_a, p) => {
      required(p, "type");
      const type = p.type!.toLowerCase();
      const code = p.code?.trim();
      if (type === "prabayar") {
        const list = code ? [sales.product(code)].filter((x) => x !== undefined) : [...sales.products.values()];
        if (code && list.length === 0) throw new Refusal("Layanan tidak ditemukan", 404);
        return ok(list.map((x) => ({ ...x, price: String(x.price) })));
      }
      if (type === "pascabayar") {
        const all = [...sales.billers.values()];
        const list = code ? all.filter((x) => x.code === code.toUpperCase()) : all;
        if (code && list.length === 0) throw new Refusal("Layanan tidak ditemukan", 404);
        return ok(list.map((x) => ({ ...x, admin: String(x.admin), komisi: String(x.komisi) })));
      }
      throw new Refusal("Type tidak valid, gunakan prabayar atau pascabayar", 400);
    },

    [ENDPOINTS.createTransaction]: (a, p) => {
      required(p, "code", "reff_id", "target");
      const tx = sales.createPrepaid(a, { code: p.code!, reffId: p.reff_id!, target: p.target!.trim(), limitPrice: p.limit_price });
      return { status: true, message: "Transaksi diproses", data: prepaidData(tx), code: 202 };
    },

    [ENDPOINTS.transactionStatus]: (a, p) => {
      required(p, "id", "type");
      const type = p.type!.toLowerCase();
      if (type === "prabayar") return ok(prepaidData(sales.getPrepaid(a, p.id!)));
      if (type === "pascabayar") return ok(paymentData(sales.getPayment(a, p.id!)));
      throw new Refusal("Type tidak valid, gunakan prabayar atau pascabayar", 400);
    },

    [ENDPOINTS.billInquiry]: (a, p) => {
      required(p, "code", "reff_id", "customer_no");
      const inq = sales.inquire(a, { code: p.code!, reffId: p.reff_id!, customerNo: p.customer_no!.trim() });
      const b = inq.bill;
      return ok({
        reff_id: inq.reffId, nomor_pelanggan: b.customerNo, nama_pelanggan: b.name, code: b.code,
        harga: b.harga, biaya_admin: b.adminTotal, total_tagihan: b.total, detail: b.detail,
      });
    },

    [ENDPOINTS.billPay]: (a, p) => {
      required(p, "code", "reff_id", "customer_no");
      return ok(paymentData(sales.payBill(a, { code: p.code!, reffId: p.reff_id!, customerNo: p.customer_no!.trim() })));
    },

    [ENDPOINTS.bankList]: () => ({ status: "true", message: "Data retrieved successfully", data: [...sales.banks.values()] }),

    [ENDPOINTS.checkAccount]: (_a, p) => {
      required(p, "bank_code", "account_number");
      const number = p.account_number!.trim();
      const r = sales.checkAccount(p.bank_code!, number);
      return { status: true, data: { kode_bank: r.bank.bank_code, nomor_akun: number, nama_pemilik: r.holder, status: r.status } };
    },

    [ENDPOINTS.createTransfer]: (a, p) => {
      required(p, "ref_id", "kode_bank", "nomor_akun", "nama_pemilik", "nominal");
      const tx = sales.createTransfer(a, {
        reffId: p.ref_id!, bankCode: p.kode_bank!, accountNumber: p.nomor_akun!.trim(), holder: p.nama_pemilik!,
        nominal: p.nominal!, email: p.email ?? "", phone: p.phone ?? "", note: p.note ?? "",
      });
      return { status: true, message: "Data berhasil diproses", data: transferData(tx, false), code: 200 };
    },

    [ENDPOINTS.transferStatus]: (a, p) => {
      required(p, "id");
      return ok(transferData(sales.getTransfer(a, p.id!), true));
    },

    [ENDPOINTS.depositMethods]: (_a, p) => {
      const type = p.type?.toLowerCase().replace("-", "");
      const metode = (p.metode ?? p.method)?.toLowerCase();
      const list = [...deposits.methods.values()].filter((m) => (!type || m.type === type) && (!metode || m.metode === metode));
      return ok(list.map(methodEntry));
    },

    [ENDPOINTS.createDeposit]: (a, p) => {
      // The docs name it `metode`, their example sends `method`: accept either.
      const metode = p.metode?.trim() ? p.metode : p.method;
      required({ ...p, metode: metode ?? "" }, "reff_id", "nominal", "type", "metode");
      return ok(depositCreateData(deposits.create(a, { reffId: p.reff_id!, nominal: p.nominal!, type: p.type!, metode: metode! })));
    },

    [ENDPOINTS.depositStatus]: (a, p) => {
      required(p, "id");
      return ok(depositStatusData(deposits.get(a, p.id!)));
    },

    [ENDPOINTS.cancelDeposit]: (a, p) => {
      required(p, "id");
      const d = deposits.cancel(a, p.id!);
      return ok({ id: d.id, status: d.status, created_at: formatAt(d.createdAt) });
    },

    [ENDPOINTS.instantDeposit]: (a, p) => {
      required(p, "id", "action");
      const action = p.action!.trim().toLowerCase();
      if (action !== "true" && action !== "false") throw new Refusal("Action harus true atau false", 400);
      const r = deposits.instant(a, p.id!, action === "true");
      const d = r.deposit;
      return ok({
        id: d.id, reff_id: d.reffId, nominal: d.nominal, penanganan: r.penanganan, total_fee: r.totalFee,
        total_diterima: r.totalDiterima, status: d.status, created_at: formatAt(d.createdAt),
      });
    },
  };

  /** Answers one call; every refusal becomes `{status:false, message, code}` (HTTP 200, as the provider). */
  return function handle(path: string, params: Params, ip: string): unknown {
    const route = routes[path];
    if (!route) return { status: false, message: "Endpoint tidak ditemukan", code: 404 };
    try {
      core.sweep();
      return route(core.authenticate(params.api_key, ip), params);
    } catch (err) {
      if (err instanceof Refusal) return { status: false, message: err.message, code: err.code };
      throw err;
    }
  };
}
