/**
 * /audit's lines read in the owner's language: no stored id (a role, a setting key), no raw boolean,
 * JSON, ISO time or bare amount reaches the owner, in Indonesian or English.
 */
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/domain/audit.js";
import { auditValue } from "../../src/domain/audit.js";
import { auditLine } from "../../src/bot/features/audit.js";
import type { BaseContext } from "../../src/bot/context.js";
import { createTranslate } from "../../src/render/i18n.js";
import { auditCsv } from "../../src/render/exportCsv.js";
import type { Lang } from "../../src/store/index.js";

const translate = createTranslate();
const at = Date.UTC(2026, 10, 23, 7, 5); // 23 Nov 2026 14.05 WIB
const DEWI = 7001;

function ctxOf(lang: Lang): BaseContext {
  return { lang, translate, t: (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars) } as unknown as BaseContext;
}

/** A line as /audit shows it, tags removed (what the owner reads). */
function line(lang: Lang, act: AuditEntry["act"], before?: unknown, after?: unknown): string {
  const entry: AuditEntry = { act, by: 1, byName: "Rina", ...(before !== undefined ? { before: auditValue(before)! } : {}), ...(after !== undefined ? { after: auditValue(after)! } : {}) };
  return auditLine(ctxOf(lang), { owner: 1, seq: 1, at, entry }, new Map([[DEWI, "Dewi"]])).replace(/<[^>]+>/g, "");
}

describe("/audit lines", () => {
  it("the time is WIB in the language's style", () => {
    expect(line("id", "key_linked", undefined, "abcd…wxyz")).toMatch(/^• 23 Nov 2026,? 14\.05 WIB · Rina · API key dihubungkan\n\s+– → abcd…wxyz$/);
    expect(line("en", "key_linked", undefined, "abcd…wxyz")).toMatch(/^• 23 Nov 2026,? 14:05 WIB · Rina · API key linked/);
  });

  it("a staff act names the person and the role as /staf does", () => {
    expect(line("id", "staff_role_changed", `${DEWI} cashier`, `${DEWI} admin`)).toContain("Dewi: kasir → Dewi: admin toko");
    expect(line("en", "staff_role_changed", `${DEWI} cashier`, `${DEWI} admin`)).toContain("Dewi: cashier → Dewi: shop admin");
    expect(line("id", "staff_removed", `Dewi (${DEWI}) cashier`)).toContain("Dewi: kasir → –");
    expect(line("en", "staff_invited", undefined, "admin")).toContain("– → shop admin");
    expect(line("id", "staff_left", "cashier")).toContain("kasir → –");
  });

  it("a staff setting reads by its name, on or off in words", () => {
    const id = line("id", "staff_choice_changed", { cashierSeesCost: false }, { cashierSeesCost: true });
    expect(id).toContain("Kasir melihat modal dan saldo: tidak → Kasir melihat modal dan saldo: ya");
    const en = line("en", "staff_choice_changed", { ownerNotices: true }, { ownerNotices: false });
    expect(en).toContain("Staff sales notices to the owner: yes → Staff sales notices to the owner: no");
  });

  it("selling prices read as /markup lists them, amounts in rupiah", () => {
    const rules = { all: { flat: 2000 }, categories: { pulsa: { percent: 2.5 } }, fixed: { PLN50: 52500 }, billFee: 2500 };
    expect(line("id", "prices_changed", {}, rules)).toContain(
      "tanpa aturan (harga modal) → Semua produk: +Rp2.000; Kategori pulsa: +2,5%; Harga tetap PLN50: Rp52.500; Tagihan (admin toko Anda): +Rp2.500",
    );
    expect(line("en", "prices_changed", undefined, rules)).toMatch(/All products: \+Rp2,000; .*\+2\.5%; .*Rp52,500/);
  });

  it("shop settings read by their names, values in words", () => {
    expect(line("id", "shop_changed", { shopName: "Cell Jaya" }, {})).toContain("Nama toko di struk: Cell Jaya → kosong");
    const online = line("en", "shop_changed", { online: { feePayer: "customer", hours: null, dailyUnpaidCap: 1000 } }, { online: { feePayer: "reseller", hours: { open: "08:00", close: "21:00" }, dailyUnpaidCap: 50 } });
    expect(online).toContain("QRIS fee paid by: the customer (added to the price); Opening hours: 24 hours; Unpaid QRIS limit per day: 1,000");
    expect(online).toContain("QRIS fee paid by: you (taken from the profit); Opening hours: 08:00–21:00");
    expect(line("id", "shop_changed", { online: { hours: { open: "08:00", close: "21:00" }, paused: false } })).toContain("Jam buka: 08.00–21.00; Toko online dijeda: tidak");
    expect(line("id", "shop_changed", { online: { link: "old" } }, { online: { link: "new" } })).toContain("Link toko: link lama → Link toko: link baru");
  });

  it("a money act's amount is rupiah; an export names its month or the audit log", () => {
    expect(line("id", "transfer", undefined, "TX1 · 1500000 · Transfer BCA · 1234567890")).toContain("– → TX1 · Rp1.500.000 · Transfer BCA · 1234567890");
    expect(line("en", "deposit_created", undefined, "DP1 · 50000 · QRIS")).toContain("DP1 · Rp50,000 · QRIS");
    expect(line("id", "export", undefined, "2026-11")).toContain("– → November 2026");
    expect(line("id", "export", undefined, "audit")).toContain("– → catatan audit");
    expect(line("en", "export", undefined, "audit")).toContain("– → audit log");
  });

  it("nothing raw reaches the owner: no JSON, booleans, role or setting ids", () => {
    const lines = (["id", "en"] as const).flatMap((lang) => [
      line(lang, "staff_choice_changed", { ownerNotices: true }, { ownerNotices: false }),
      line(lang, "shop_changed", { shopName: "A", shopFooter: "B" }, { shopName: "C" }),
      line(lang, "shop_changed", { online: { enabled: false, categories: [] } }, { online: { enabled: true, categories: ["pulsa"] } }),
      line(lang, "prices_changed", { products: { S10: { flat: 500 } } }, {}),
      line(lang, "staff_joined", undefined, "cashier"),
    ]);
    for (const l of lines) expect(l).not.toMatch(/[{}"]|\btrue\b|\bfalse\b|ownerNotices|shopName|feePayer|\bflat\b/);
    expect(line("id", "staff_joined", undefined, "cashier")).not.toContain("cashier");
  });
});

describe("the audit log's CSV", () => {
  const rows = (lang: Lang, act: AuditEntry["act"], before?: unknown, after?: unknown): string => {
    const entry: AuditEntry = { act, by: DEWI, byName: "Dewi", ...(before !== undefined ? { before: auditValue(before)! } : {}), ...(after !== undefined ? { after: auditValue(after)! } : {}) };
    return auditCsv(translate, lang, [{ at, entry }], new Map([[DEWI, "Dewi"]])).toString("utf8");
  };

  it("says each value as /audit does, as plain text: a role by its name, an amount in rupiah, no tags or entities", () => {
    const joined = rows("id", "staff_joined", undefined, "cashier");
    expect(joined).toContain("kasir");
    expect(joined).not.toMatch(/cashier|<\/?\w+>|&\w+;/);
    expect(rows("en", "staff_joined", undefined, "cashier")).toContain("cashier");
    const role = rows("id", "staff_role_changed", `${DEWI} cashier`, `${DEWI} admin`);
    expect(role).toContain("Dewi: kasir");
    expect(role).not.toContain(String(DEWI) + " cashier");
  });
});
