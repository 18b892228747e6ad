/**
 * Paths of the provider's 15 endpoints (all POST, form-urlencoded). Kept free of runtime
 * dependencies so the sandbox server can route on the same constants the client calls.
 */
export const ENDPOINTS = {
  profile: "/get_profile",
  priceList: "/layanan/price_list",
  createTransaction: "/transaksi/create",
  transactionStatus: "/transaksi/status",
  billInquiry: "/transaksi/tagihan",
  billPay: "/transaksi/tagihan/bayar",
  bankList: "/transfer/bank_list",
  checkAccount: "/transfer/cek_rekening",
  createTransfer: "/transfer/create",
  transferStatus: "/transfer/status",
  depositMethods: "/deposit/metode",
  createDeposit: "/deposit/create",
  depositStatus: "/deposit/status",
  cancelDeposit: "/deposit/cancel",
  instantDeposit: "/deposit/instant",
} as const;

export type EndpointPath = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];
