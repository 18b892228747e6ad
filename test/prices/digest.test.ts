import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import { parseDigestTime, PriceDigestKind } from "../../src/domain/priceChanges.js";
import type { FakeUser } from "../support/chat.js";
import { settle } from "../support/settle.js";
import { makeWorld, type World } from "../support/world.js";

const CONFIRM = /Konfirmasi|Confirm/;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The world's clock starts at 2026-01-15 10.00 WIB. */
const START_WIB_MINUTES = 10 * 60;

let w: World;
afterEach(() => w?.close());

async function costOf(code: string): Promise<number> {
  const [p] = await w.upstream.prepaidPriceList(w.demoKey, code);
  return p!.price;
}

/** A sale that succeeds at once (a target ending in 5555). */
async function sell(u: FakeUser, code: string, target: string): Promise<void> {
  await u.sendCommand("beli", `${code} ${target}`);
  await u.pressButton(CONFIRM);
  expect(u.lastReply()).toMatch(/Berhasil|Successful/);
}

const digestsTo = (u: FakeUser) =>
  w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && /Perubahan harga modal|Cost changes/.test(w.fake.textOf(c) ?? "")).map((c) => w.fake.textOf(c)!);

const noticesTo = (u: FakeUser) =>
  w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && /di bawah modal|below cost/.test(w.fake.textOf(c) ?? "")).map((c) => w.fake.textOf(c)!);

/** Moves the clock to `minutes` after 00.00 WIB of the day `days` after the start, letting the job's runs finish. */
async function toWib(days: number, minutes: number): Promise<void> {
  const target = Date.UTC(2026, 0, 15 + days, 0, 0) - 7 * HOUR + minutes * MINUTE;
  await w.clock.advance(target - w.clock.now());
  await settle(w.clock, w.app.priceDigest.idle(), { stepMs: 1 });
}

/** The bot fetches the price list again (as a browse after the cache expired would). */
async function refetch(): Promise<void> {
  w.deps.lists.invalidate();
  await w.deps.lists.prepaid(w.demoKey);
}

describe("the daily price digest", () => {
  it("lists exactly the changed products the chat sold, with the selling price they become, once a day at 08.00 WIB", async () => {
    w = await makeWorld();
    const seller = await w.linkedUser({ languageCode: "id" });
    const other = await w.linkedUser({ languageCode: "id" }); // same account, sold nothing
    await w.deps.settings.setPricing(seller.chatId, { all: { flat: 1000 }, fixed: { I10: 20_000 } });
    const s10 = await costOf("S10");
    const i10 = await costOf("I10");
    const t10 = await costOf("T10");
    await sell(seller, "S10", "081234565555");
    await sell(seller, "I10", "085712345555");
    await sell(seller, "X10", "081712345555");
    w.app.priceDigest.start(); // 10.00: today's 08.00 has passed with nothing changed
    await settle(w.clock, w.app.priceDigest.idle(), { stepMs: 1 });

    w.sandbox.setPrice("S10", s10 + 300); // sold: listed
    w.sandbox.setPrice("I10", i10 + 50); // sold, fixed price: listed with the fixed price
    w.sandbox.setPrice("T10", t10 + 200); // not sold by this chat: not listed
    await refetch();
    expect(digestsTo(seller)).toEqual([]);

    await toWib(1, 7 * 60 + 45);
    expect(digestsTo(seller)).toEqual([]);
    await toWib(1, 8 * 60);
    const [digest, ...more] = digestsTo(seller);
    expect(more).toEqual([]);
    expect(digest).toContain(`⬆️ Telkomsel 10.000 (S10): modal ${rupiah(s10, "id")} → ${rupiah(s10 + 300, "id")}, harga jual ${rupiah(Math.ceil((s10 + 300 + 1000) / 100) * 100, "id")}`);
    expect(digest).toContain(`⬆️ Indosat 10.000 (I10): modal ${rupiah(i10, "id")} → ${rupiah(i10 + 50, "id")}, harga jual ${rupiah(20_000, "id")}`);
    expect(digest).not.toContain("T10");
    expect(digest).not.toContain("X10");
    expect(digestsTo(other)).toEqual([]);
    expect(await w.store.getDoc(PriceDigestKind, String(other.chatId))).toBeUndefined(); // a quiet day writes nothing

    // Once a day: later quarters and a restart of the job send nothing more.
    await w.app.priceDigest.stop();
    w.app.priceDigest.start();
    await toWib(1, 12 * 60);
    expect(digestsTo(seller)).toHaveLength(1);

    // Nothing changed by the next 08.00: no digest.
    await toWib(2, 8 * 60 + 15);
    expect(digestsTo(seller)).toHaveLength(1);

    // A change the day after: told the next morning again.
    w.sandbox.setPrice("S10", s10 + 100);
    await refetch();
    await toWib(3, 8 * 60);
    expect(digestsTo(seller)).toHaveLength(2);
    expect(digestsTo(seller)[1]).toContain(`⬇️ Telkomsel 10.000 (S10): modal ${rupiah(s10 + 300, "id")} → ${rupiah(s10 + 100, "id")}`);
  });

  it("comes at the time the chat chose, and not at all once turned off", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const s10 = await costOf("S10");
    await sell(u, "S10", "081234565555");
    await u.sendCommand("prices", "digest");
    expect(u.lastReply()).toContain("Price change digest: on, daily at 08:00 WIB");
    await u.sendCommand("prices", "digest 7.10");
    expect(u.lastReply()).toContain("Time not recognised");
    await u.sendCommand("prices", "digest 06:30");
    expect(u.lastReply()).toContain("daily at 06:30 WIB");
    w.app.priceDigest.start();
    await settle(w.clock, w.app.priceDigest.idle(), { stepMs: 1 });

    w.sandbox.setPrice("S10", s10 + 300);
    await refetch();
    await toWib(1, 6 * 60 + 15);
    expect(digestsTo(u)).toEqual([]);
    await toWib(1, 6 * 60 + 30);
    expect(digestsTo(u)).toHaveLength(1);
    expect(digestsTo(u)[0]).toContain(`Telkomsel 10.000 (S10): cost ${rupiah(s10, "en")} → ${rupiah(s10 + 300, "en")}`);

    await u.sendCommand("prices", "digest off");
    expect(u.lastReply()).toContain("Price change digest: off");
    w.sandbox.setPrice("S10", s10 + 600);
    await refetch();
    await toWib(2, 9 * 60);
    expect(digestsTo(u)).toHaveLength(1);
  });
});

describe("a fixed price below the cost is told once", () => {
  it("names the prices to fix once; a price fixed and broken again is told again", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const s10 = await costOf("S10");
    await w.deps.settings.setPricing(u.chatId, { fixed: { S10: s10 + 200, I10: 50_000 } });
    await refetch(); // the costs as the bot knows them
    w.app.priceDigest.start();
    await settle(w.clock, w.app.priceDigest.idle(), { stepMs: 1 });
    expect(noticesTo(u)).toEqual([]);

    w.sandbox.setPrice("S10", s10 + 500);
    await refetch();
    await toWib(0, START_WIB_MINUTES + 15);
    expect(noticesTo(u)).toHaveLength(1);
    expect(noticesTo(u)[0]).toContain(`S10: harga tetap ${rupiah(s10 + 200, "id")}, modal sekarang ${rupiah(s10 + 500, "id")}`);
    expect(noticesTo(u)[0]).not.toContain("I10");
    await toWib(0, START_WIB_MINUTES + 120);
    expect(noticesTo(u)).toHaveLength(1);

    // Fixed, then broken again: told again.
    await w.deps.settings.setPricing(u.chatId, { fixed: { S10: s10 + 600 } });
    await toWib(0, START_WIB_MINUTES + 135);
    w.sandbox.setPrice("S10", s10 + 700);
    await refetch();
    await toWib(0, START_WIB_MINUTES + 150);
    expect(noticesTo(u)).toHaveLength(2);
  });
});

describe("the digest's time as typed", () => {
  it.each([
    ["08.00", 480],
    ["8", 480],
    ["07:30", 450],
    ["23.45", 1425],
    ["0", 0],
    ["7.10", undefined],
    ["24.00", undefined],
    ["8 pagi", undefined],
  ])("%s -> %s", (typed, minutes) => {
    expect(parseDigestTime(typed)).toBe(minutes);
  });
});
