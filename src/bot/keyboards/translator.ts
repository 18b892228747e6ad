/** What a keyboard needs to write its buttons' words: a context, or a stand-in built from `translate(lang, ...)`. */
export interface Translator {
  t(key: string, vars?: Record<string, string | number>): string;
}
