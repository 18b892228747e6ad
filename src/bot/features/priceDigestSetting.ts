/** The daily price digest's setting for a chat (`/harga ringkasan`); the digest itself is src/jobs/priceDigest.ts. */
import type { BotContext } from "../context.js";
import { requireStorage } from "../guards.js";
import { changeDigest, digestOf, digestTimeText, parseDigestTime } from "../../domain/priceChanges.js";

/** `/harga ringkasan [on|off|08.00]`: the daily price digest's state, switched or set to a time. */
export async function digestSetting(ctx: BotContext, arg: string): Promise<void> {
  const chatId = ctx.chat!.id;
  const store = ctx.deps.store;
  if (arg) {
    const on = /^(on|nyala|aktif)$/i.test(arg) ? true : /^(off|mati)$/i.test(arg) ? false : undefined;
    const at = on === undefined ? parseDigestTime(arg) : undefined;
    if (on === undefined && at === undefined) {
      await ctx.reply(ctx.t("prices-digest-bad-time"));
      return;
    }
    if (!(await requireStorage(ctx))) return;
    // A time set switches it on as well.
    await changeDigest(store, chatId, (c) => ({ on: on ?? true, value: at === undefined ? c.value : { ...c.value, at } }));
    await store.flush();
  }
  const now = await digestOf(store, chatId);
  await ctx.reply(now.on ? ctx.t("prices-digest-on", { time: digestTimeText(now.at, ctx.lang) }) : ctx.t("prices-digest-off"));
}
