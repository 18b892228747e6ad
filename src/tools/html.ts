const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Escapes text for Telegram's HTML parse mode (and for HTML pages, attributes included). */
export function html(text: string | number): string {
  return String(text).replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]!);
}
