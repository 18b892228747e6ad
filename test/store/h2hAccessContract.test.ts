/**
 * A downline's H2H access on both stores (docs/h2h.md): the owner's switch, a key kept only as its
 * digest that works at once and stops the moment a new one is made, the IP list and callback URL, and
 * all of it still there after a reopen.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { H2hAccess, keyDigest } from "../../src/domain/h2hAccess.js";
import { closeOpened, stores } from "./places.js";

afterEach(closeOpened);

const OWNER = 100;
const ANDI = 201;
const STRANGER = 300;

describe.each(stores)("H2H access contract: $name", ({ place, skip }) => {
  it.skipIf(skip)("the owner's switch, one key at a time kept as a digest, IPs and callback URL, across a reopen", async () => {
    const where = await place();
    const clock = new ManualClock(1_000);
    let s = await where.open({ clock });
    await s.updateChat(ANDI, { downlineOf: { owner: OWNER, upline: OWNER, level: 1, since: 0 } });
    let access = new H2hAccess(s);

    // Only the owner's own downline, and no key while access is off.
    expect(await access.enable(OWNER, STRANGER, true)).toBe("not-member");
    expect(await access.enable(999, ANDI, true)).toBe("not-member");
    expect(await access.newKey(ANDI, clock.now())).toBe("off");
    expect(await access.enable(OWNER, ANDI, true)).toMatchObject({ enabled: true, hasKey: false, ips: [] });

    const first = await access.newKey(ANDI, clock.now());
    if (first === "off") throw new Error("access is on");
    expect(first.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await access.authenticate(first.key)).toEqual({ chat: ANDI, owner: OWNER, ips: [], callbackUrl: undefined });
    expect(await access.authenticate(`${first.key}x`)).toBeUndefined();
    expect(await access.authenticate("")).toBeUndefined();

    // A new key retires the old at once.
    const second = await access.newKey(ANDI, clock.now());
    if (second === "off") throw new Error("access is on");
    expect(await access.authenticate(first.key)).toBeUndefined();
    expect(await access.authenticate(second.key)).toMatchObject({ chat: ANDI, owner: OWNER });

    expect(await access.setIps(ANDI, ["203.0.113.7", " ::ffff:198.51.100.2 "])).toMatchObject({ ips: ["203.0.113.7", "198.51.100.2"] });
    expect(await access.setIps(ANDI, ["not-an-ip"])).toBe("bad-ip");
    expect(await access.setIps(ANDI, Array.from({ length: 11 }, (_, i) => `10.0.0.${i}`))).toBe("bad-ip");
    expect(await access.setCallbackUrl(ANDI, "ftp://example.com/cb")).toBe("bad-url");
    expect(await access.setCallbackUrl(ANDI, "https://andi.example/cb")).toMatchObject({ callbackUrl: "https://andi.example/cb" });
    expect(await access.setIps(STRANGER, ["10.0.0.1"])).toBe("unknown");

    // Off: the key stops; on again: the same key works.
    await access.enable(OWNER, ANDI, false);
    expect(await access.authenticate(second.key)).toBeUndefined();
    await access.enable(OWNER, ANDI, true);

    await s.close();
    s = await where.open({ clock });
    access = new H2hAccess(s);
    expect(await access.authenticate(second.key)).toEqual({ chat: ANDI, owner: OWNER, ips: ["203.0.113.7", "198.51.100.2"], callbackUrl: "https://andi.example/cb" });
    expect(await access.authenticate(first.key)).toBeUndefined();
    // Only digests are stored: neither key appears anywhere the store wrote.
    const written = await where.allText();
    expect(written).not.toContain(first.key);
    expect(written).not.toContain(second.key);
    expect(written).toContain(keyDigest(second.key));
  });
});
