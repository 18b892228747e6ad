/**
 * Stack frames in the bundle (dist/bot.cjs) turned back into src/ positions for the log, read from the
 * bundle's source maps when a line first needs them. `node --enable-source-maps` would do this for every
 * stack, but it scans every loaded module's text at start-up (~12 ms CPU, bench/startup.ts); this way the
 * cost falls on the first logged error instead. With the flag on (or under tsx) frames are already mapped.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, resolve } from "node:path";

/** A frame's position in a .js or .cjs file: `file:///…/x.cjs:12:34` or `/…/x.js:12:34` (inside a JSON line too). */
const FRAME = /(file:\/\/)?(\/[^\s()"'\\]+?\.c?js):(\d+):(\d+)/g;

/** Per bundle file: its map, or null when it has none (node_modules, not a build of ours). */
const maps = new Map<string, { map: SourceMap; dir: string } | null>();

function mapOf(file: string): { map: SourceMap; dir: string } | null {
  let m = maps.get(file);
  if (m === undefined) {
    m = null;
    try {
      const path = `${file}.map`;
      if (existsSync(path)) m = { map: new SourceMap(JSON.parse(readFileSync(path, "utf8")) as never), dir: dirname(path) };
    } catch {
      // unreadable map: the frame stays as it is
    }
    if (maps.size < 256) maps.set(file, m); // bounded: a logged text can name any path
  }
  return m;
}

/** `text` with every bundle frame it can map replaced by its source file, line and column. */
export function mapBundleFrames(text: string): string {
  if (process.sourceMapsEnabled || !/\.c?js:/.test(text)) return text;
  return text.replace(FRAME, (frame, _scheme: string | undefined, file: string, line: string, column: string) => {
    const m = mapOf(file);
    if (!m) return frame;
    const entry = m.map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return frame;
    // As --enable-source-maps writes it: a path, not a file:// URL.
    return `${resolve(m.dir, entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
