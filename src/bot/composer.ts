/**
 * grammY's own Composer, nothing more. Only money/confirm.ts and features/shopPay.ts still import it
 * from here (they are being rewritten elsewhere); everything else imports it from "grammy". Delete
 * this file once those two do.
 */
export { Composer } from "grammy";
