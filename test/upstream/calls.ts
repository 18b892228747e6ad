/** Every client method once, with the path it must hit and whether it is a create (never retried). */
import type { UpstreamClient } from "../../src/upstream/client.js";
import { ENDPOINTS } from "../../src/upstream/endpoints.js";
import { fixture, type Hit, type Reply } from "./server.js";

export interface CallCase {
  name: string;
  path: string;
  create: boolean;
  call: (c: UpstreamClient, key: string) => Promise<unknown>;
  /** Form fields besides api_key the server must receive. */
  form: Record<string, string>;
}

export const CALLS: CallCase[] = [
  { name: "getProfile", path: ENDPOINTS.profile, create: false, call: (c, k) => c.getProfile(k), form: {} },
  {
    name: "prepaidPriceList",
    path: ENDPOINTS.priceList,
    create: false,
    call: (c, k) => c.prepaidPriceList(k),
    form: { type: "prabayar" },
  },
  {
    name: "prepaidPriceList(code)",
    path: ENDPOINTS.priceList,
    create: false,
    call: (c, k) => c.prepaidPriceList(k, "PLN100"),
    form: { type: "prabayar", code: "PLN100" },
  },
  {
    name: "postpaidPriceList",
    path: ENDPOINTS.priceList,
    create: false,
    call: (c, k) => c.postpaidPriceList(k, "PPLN"),
    form: { type: "pascabayar", code: "PPLN" },
  },
  {
    name: "createTransaction",
    path: ENDPOINTS.createTransaction,
    create: true,
    call: (c, k) => c.createTransaction(k, { code: "KODE1", reffId: "R-1", target: "0856 1234", limitPrice: 60000 }),
    form: { code: "KODE1", reff_id: "R-1", target: "0856 1234", limit_price: "60000" },
  },
  {
    name: "prepaidStatus",
    path: ENDPOINTS.transactionStatus,
    create: false,
    call: (c, k) => c.prepaidStatus(k, "TX1"),
    form: { id: "TX1", type: "prabayar" },
  },
  {
    name: "postpaidStatus",
    path: ENDPOINTS.transactionStatus,
    create: false,
    call: (c, k) => c.postpaidStatus(k, "TX2"),
    form: { id: "TX2", type: "pascabayar" },
  },
  {
    name: "billInquiry",
    path: ENDPOINTS.billInquiry,
    create: false,
    call: (c, k) => c.billInquiry(k, { code: "PPLN", reffId: "B-1", customerNo: "1234567890123" }),
    form: { code: "PPLN", reff_id: "B-1", customer_no: "1234567890123" },
  },
  {
    name: "billPay",
    path: ENDPOINTS.billPay,
    create: true,
    call: (c, k) => c.billPay(k, { code: "PPLN", reffId: "B-1", customerNo: "1234567890123" }),
    form: { code: "PPLN", reff_id: "B-1", customer_no: "1234567890123" },
  },
  { name: "bankList", path: ENDPOINTS.bankList, create: false, call: (c, k) => c.bankList(k), form: {} },
  {
    name: "checkAccount",
    path: ENDPOINTS.checkAccount,
    create: false,
    call: (c, k) => c.checkAccount(k, { bankCode: "ovo", accountNumber: "0811222221" }),
    form: { bank_code: "ovo", account_number: "0811222221" },
  },
  {
    name: "createTransfer",
    path: ENDPOINTS.createTransfer,
    create: true,
    call: (c, k) =>
      c.createTransfer(k, {
        refId: "T-1",
        bankCode: "bca",
        accountNumber: "123",
        holderName: "Budi & Sons",
        amount: 10000,
        email: "a@b.c",
        phone: "0812",
        note: "gaji",
      }),
    form: {
      ref_id: "T-1",
      kode_bank: "bca",
      nomor_akun: "123",
      nama_pemilik: "Budi & Sons",
      nominal: "10000",
      email: "a@b.c",
      phone: "0812",
      note: "gaji",
    },
  },
  {
    name: "transferStatus",
    path: ENDPOINTS.transferStatus,
    create: false,
    call: (c, k) => c.transferStatus(k, "TR1"),
    form: { id: "TR1" },
  },
  {
    name: "depositMethods",
    path: ENDPOINTS.depositMethods,
    create: false,
    call: (c, k) => c.depositMethods(k),
    form: {},
  },
  {
    name: "depositMethods(filter)",
    path: ENDPOINTS.depositMethods,
    create: false,
    call: (c, k) => c.depositMethods(k, { type: "ewallet", method: "qris" }),
    form: { type: "ewallet", metode: "qris", method: "qris" },
  },
  {
    name: "createDeposit",
    path: ENDPOINTS.createDeposit,
    create: true,
    call: (c, k) => c.createDeposit(k, { reffId: "D-1", amount: 50000, type: "ewallet", method: "qris" }),
    form: { reff_id: "D-1", nominal: "50000", type: "ewallet", metode: "qris", method: "qris" },
  },
  {
    name: "depositStatus",
    path: ENDPOINTS.depositStatus,
    create: false,
    call: (c, k) => c.depositStatus(k, "DP1"),
    form: { id: "DP1" },
  },
  {
    name: "cancelDeposit",
    path: ENDPOINTS.cancelDeposit,
    create: false,
    call: (c, k) => c.cancelDeposit(k, "DP1"),
    form: { id: "DP1" },
  },
  {
    name: "instantDeposit(false)",
    path: ENDPOINTS.instantDeposit,
    create: false,
    call: (c, k) => c.instantDeposit(k, { id: "DP1", action: false }),
    form: { id: "DP1", action: "false" },
  },
  {
    name: "instantDeposit(true)",
    path: ENDPOINTS.instantDeposit,
    create: true,
    call: (c, k) => c.instantDeposit(k, { id: "DP1", action: true }),
    form: { id: "DP1", action: "true" },
  },
];

const postpaidList = {
  status: true,
  data: [
    { code: "PPLN", layanan: "PLN Pascabayar", type: "pln", category: "PLN", admin: "2750", komisi: "1000", note: "", status: "available" },
  ],
  code: 200,
};
const depositMethods = {
  status: true,
  data: [
    { metode: "qris", type: "ewallet", name: "QRIS", min: "1000", max: "5000000", fee: "200", fee_persen: "0.7", status: "aktif", img_url: "" },
  ],
  code: 200,
};

/** A valid answer for every endpoint, mostly the provider's own samples. */
export function validReply(hit: Hit): Reply {
  const byPath: Record<string, unknown> = {
    [ENDPOINTS.profile]: fixture("get_profile__ok.json"),
    [ENDPOINTS.priceList]:
      hit.form.type === "pascabayar" ? postpaidList : fixture("layanan_price_list__prabayar.json"),
    [ENDPOINTS.createTransaction]: fixture("transaksi_create__pending.json"),
    // The prepaid sample also serves the undocumented postpaid status (lenient parse).
    [ENDPOINTS.transactionStatus]: fixture("transaksi_status__success_prabayar.json"),
    [ENDPOINTS.billInquiry]: fixture("transaksi_tagihan__pln.json"),
    [ENDPOINTS.billPay]: fixture("transaksi_tagihan_bayar__success.json"),
    [ENDPOINTS.bankList]: fixture("transfer_bank_list__ok.json"),
    [ENDPOINTS.checkAccount]: fixture("transfer_cek_rekening__valid.json"),
    [ENDPOINTS.createTransfer]: fixture("transfer_create__pending.json"),
    [ENDPOINTS.transferStatus]: fixture("transfer_status__success.json"),
    [ENDPOINTS.depositMethods]: depositMethods,
    [ENDPOINTS.createDeposit]: fixture("deposit_create__qris_docs.json"),
    [ENDPOINTS.depositStatus]: fixture("deposit_status__success_ewallet.json"),
    [ENDPOINTS.cancelDeposit]: fixture("deposit_cancel__ok.json"),
    [ENDPOINTS.instantDeposit]: fixture("deposit_instant__processing.json"),
  };
  const json = byPath[hit.path.replace(/^\/api/, "")];
  return json === undefined ? { status: 404, body: "no route" } : { json };
}
