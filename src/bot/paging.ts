/** Paged lists on inline keyboards: the page maths and the Previous / Next row, for every pager. */
import type { Translator } from "./keyboards/translator.js";
import type { InlineKeyboard } from "grammy";

export interface Page<T> {
  items: T[];
  /** Zero-based, clamped into range. */
  page: number;
  pages: number;
}

export function paginate<T>(items: readonly T[], page: number, size: number): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const p = Math.min(Math.max(0, Math.trunc(page) || 0), pages - 1);
  return { items: items.slice(p * size, (p + 1) * size), page: p, pages };
}

/**
 * Previous / Next (those that apply) on a row of their own; `to` builds a page's callback data
 * (through its shape in telegram/buttonData.ts). Callers adding more buttons start a new row.
 */
export function addPager(
  kb: InlineKeyboard,
  ctx: Translator,
  { page, pages }: { page: number; pages: number },
  to: (page: number) => string,
): InlineKeyboard {
  if (kb.inline_keyboard.at(-1)?.length !== 0) kb.row();
  if (page > 0) kb.text(ctx.t("button-prev"), to(page - 1));
  if (page < pages - 1) kb.text(ctx.t("button-next"), to(page + 1));
  return kb;
}

/** Repeated row() calls leave empty rows behind; Telegram has no use for them. */
export function dropEmptyRows(kb: InlineKeyboard): InlineKeyboard {
  for (let i = kb.inline_keyboard.length - 1; i >= 0; i--) {
    if (kb.inline_keyboard[i]!.length === 0) kb.inline_keyboard.splice(i, 1);
  }
  return kb;
}
