/** What a deposit's screens say: its detail fields, the method's fee, the payment instructions. */
import type { DepositDetail, TxRecord } from "../../store/index.js";
import { detailOf } from "../../store/index.js";
import type { BotDeps } from "../context.js";
import { html, intlLocale, rupiah, wibTime } from "../../render/format.js";
import { withSandboxBanner } from "../../render/sandboxBanner.js";
import type { Replier } from "./kinds.js";
import type { Translator } from "../keyboards/translator.js";


/** Anything that translates: a context, or a stand-in built from `translate(lang, ...)` by the watcher. */
export type { Translator } from "../keyboards/translator.js";

/** The deposit detail keys whose value is a `T`. */
type KeysOf<T> = { [K in keyof DepositDetail]-?: NonNullable<DepositDetail[K]> extends T ? K : never }[keyof DepositDetail];

/** A deposit detail text; "" counts as absent (the provider sends empty fields). */
export function detailString(tx: TxRecord, key: KeysOf<string>): string | undefined {
  const v = detailOf(tx, "deposit")[key];
  return v === undefined || v === "" ? undefined : v;
}

/** A deposit detail number; null (no expiry) counts as absent. */
export function detailNumber(tx: TxRecord, key: KeysOf<number>): number | undefined {
  return detailOf(tx, "deposit")[key] ?? undefined;
}

/** `Rp4.000 + 0,7%`, `0,7%`, `Rp4.000`, or "free", in the chat's number style. */
export function feeDescription(ctx: Translator & { lang: string }, fixed: number, percent: number): string {
  const pct = `${new Intl.NumberFormat(intlLocale(ctx.lang), { maximumFractionDigits: 2 }).format(percent)}%`;
  if (fixed > 0 && percent > 0) return `${rupiah(fixed, ctx.lang)} + ${pct}`;
  if (fixed > 0) return rupiah(fixed, ctx.lang);
  if (percent > 0) return pct;
  return ctx.t("deposit-fee-free");
}

export function isBankTransfer(tx: TxRecord): boolean {
  return detailString(tx, "type") === "bank";
}

/** Amount, fee, what lands in the balance and the deadline: shared by every payment screen. */
function amountLines(ctx: Pick<Replier, "t" | "lang">, tx: TxRecord): string[] {
  const credited = detailNumber(tx, "credited");
  const expiresAt = detailNumber(tx, "expiresAt");
  return [
    ctx.t("deposit-line-amount", { amount: rupiah(tx.amount, ctx.lang) }),
    ...(tx.fee === undefined ? [] : [ctx.t("deposit-line-fee", { fee: rupiah(tx.fee, ctx.lang) })]),
    // A downline's deposit: what its wallet receives (the owner's balance is the owner's).
    ...(tx.wallet?.credit !== undefined
      ? [ctx.t("wallet-deposit-line", { credit: rupiah(tx.wallet.credit, ctx.lang) })]
      : credited === undefined
        ? []
        : [ctx.t("deposit-line-credited", { credited: rupiah(credited, ctx.lang) })]),
    ...(expiresAt === undefined ? [] : [ctx.t("deposit-line-expires", { time: wibTime(expiresAt, ctx.lang) })]),
  ];
}

/** The payment instructions of a created deposit (HTML), by what the provider returned. */
export function depositInstructionsText(deps: BotDeps, ctx: Pick<Replier, "t" | "lang">, tx: TxRecord): string {
  const title = ctx.t("deposit-instructions-title", { method: html(tx.title ?? tx.code ?? "") });
  const ref = ctx.t("deposit-line-ref", { ref: html(tx.refId) });
  const bank = detailString(tx, "bank");
  const body: string[] = [];
  if (detailString(tx, "qrString")) {
    body.push(ctx.t("deposit-qris-howto"), "", ...amountLines(ctx, tx));
  } else if (detailString(tx, "vaNumber")) {
    body.push(
      ctx.t("deposit-va-howto"),
      "",
      ctx.t("deposit-line-bank", { bank: html(bank ?? "") }),
      ctx.t("deposit-line-va", { va: html(detailString(tx, "vaNumber")!) }),
      ...amountLines(ctx, tx),
    );
  } else if (isBankTransfer(tx) && detailString(tx, "accountNumber")) {
    const extra = detailNumber(tx, "extra") ?? 0;
    body.push(
      ctx.t("deposit-bank-howto"),
      "",
      ctx.t("deposit-line-bank", { bank: html(bank ?? "") }),
      ctx.t("deposit-line-account", { account: html(detailString(tx, "accountNumber")!) }),
      ctx.t("deposit-line-holder", { holder: html(detailString(tx, "accountHolder") ?? "") }),
      // The provider's nominal already includes the unique add-on: it is the exact amount to send.
      ctx.t("deposit-line-transfer-exact", { digits: String(tx.amount), amount: rupiah(tx.amount, ctx.lang) }),
      ...amountLines(ctx, tx).slice(1),
      "",
      ctx.t("deposit-bank-exact-warning", { amount: rupiah(tx.amount, ctx.lang), extra: rupiah(extra, ctx.lang) }),
    );
  } else if (detailString(tx, "url")) {
    body.push(ctx.t("deposit-ewallet-howto"), "", ...amountLines(ctx, tx));
  } else {
    // Found after a lost create answer: the provider's status carries no code to pay with.
    body.push(ctx.t("deposit-no-code"), "", ...amountLines(ctx, tx));
  }
  return withSandboxBanner(deps.translate, ctx.lang, deps.sandbox, [title, ...body, ref, "", ctx.t(tx.wallet ? "wallet-deposit-on-paid" : "deposit-credit-on-success")].join("\n"));
}
