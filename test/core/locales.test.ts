import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FluentBundle, FluentResource } from "@fluent/bundle";
import { LOCALES_DIR } from "../../src/render/i18n.js";

function ftlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? ftlFiles(p) : p.endsWith(".ftl") ? [p] : [];
  });
}

/** All message ids of one language: locales/<lang>.ftl plus locales/<lang>/*.ftl. */
function messageIds(lang: string): Set<string> {
  const ids = new Set<string>();
  for (const file of ftlFiles(LOCALES_DIR)) {
    const rel = file.slice(LOCALES_DIR.length + 1);
    if (rel.split(/[/.]/)[0] !== lang) continue;
    const resource = new FluentResource(readFileSync(file, "utf8"));
    const bundle = new FluentBundle(lang);
    const errors = bundle.addResource(resource);
    expect(errors, `syntax errors in ${rel}`).toEqual([]);
    for (const m of resource.body) ids.add(m.id);
  }
  return ids;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("locales", () => {
  const id = messageIds("id");
  const en = messageIds("en");

  it("Indonesian and English define the same messages", () => {
    expect([...id].filter((k) => !en.has(k)), "missing in English").toEqual([]);
    expect([...en].filter((k) => !id.has(k)), "missing in Indonesian").toEqual([]);
    expect(id.size).toBeGreaterThan(50);
  });

  it("every literal key the code translates exists", () => {
    const used = new Set<string>();
    const pattern = /\bt\(\s*(?:(?:[\w.]+|"(?:id|en)"),\s*)?"(?!(?:id|en)")([a-z0-9-]+)"/g;
    for (const file of sourceFiles(join(LOCALES_DIR, "..", "src"))) {
      for (const m of readFileSync(file, "utf8").matchAll(pattern)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((k) => !id.has(k))).toEqual([]);
  });
});
