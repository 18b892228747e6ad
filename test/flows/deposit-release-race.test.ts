import type { Update } from "grammy/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ManualClock } from "../../src/clock.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import type { World } from "../support/world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const x of worlds.splice(0)) await x.close().catch(() => undefined);
});

/**
 * Behind a load balancer the two taps of a double tap on "release now" reach two processes (one
 * PostgreSQL). Each process has its own copy of every module, so an in-process guard cannot help.
 */
describe.skipIf(!hasPg)("deposit instant release pressed on two processes", () => {
  it("the provider is asked to release once, the record keeps the winner's result, the other tap is told it is already done", async () => {
    const url = await freshDatabase();
    // Process A
    const modA = await import("../support/world.js");
    const { PgShared: PgSharedA } = await import("../../src/store/pg/shared.js");
    const { silentLogger } = await import("../../src/logger.js");
    const a = await modA.makeWorld({ shared: (c: ManualClock) => PgSharedA.open(url, { clock: c, logger: silentLogger }), env: { STORE_URL: url } });
    worlds.push(a);
    // Process B: its own copy of every module (as a second process has), same database and provider.
    vi.resetModules();
    const modB = await import("../support/world.js");
    const { PgShared: PgSharedB } = await import("../../src/store/pg/shared.js");
    const b = await modB.makeWorld({ shared: (c: ManualClock) => PgSharedB.open(url, { clock: c, logger: silentLogger }), env: { STORE_URL: url, UPSTREAM_BASE_URL: a.sandbox.url } });
    worlds.push(b);
    for (let i = 0; i < 10_000; i++) b.fake.nextUpdateId();

    const u = await a.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    for (let page = 0; page < 5 && !u.findButton(/^QRIS · /); page++) await u.pressButton(/Berikutnya|Next/);
    await u.pressButton(/^QRIS · /);
    await u.sendText("50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = (await a.store.listTxByChat(u.chatId)).items[0]!;
    a.sandbox.payDeposit(tx.upstreamId!);
    const press = (data: string, updateId: number): Update =>
      ({
        update_id: updateId,
        callback_query: { id: `${u.user.id}${Math.floor(Math.random() * 1e6)}`, from: u.user, message: a.fake.message(u.chatId, tx.messageId!)!.message, chat_instance: "1", data },
      }) as Update;
    await u.deliver(press(`dp:i:${tx.refId}`, a.fake.nextUpdateId()));
    expect(u.lastReply()).toContain("Cairkan deposit sekarang?");
    const first = u.callbackUpdate("⚡ Ya, cairkan");
    const second = u.callbackUpdate("⚡ Ya, cairkan");
    second.update_id = first.update_id + 5000;
    // The double tap: each tap reaches another process behind the load balancer; both read the
    // record before either writes its "sending" mark (a barrier makes the interleaving certain).
    let arrived = 0;
    let open!: () => void;
    const barrier = new Promise<void>((r) => (open = r));
    for (const st of [a.store, b.store]) {
      const orig = st.getTx.bind(st);
      (st as { getTx: unknown }).getTx = async (ref: string) => {
        const rec = await orig(ref);
        if (ref === tx.refId && rec?.detail && (rec.detail as { instant?: unknown }).instant === undefined && arrived < 2) {
          if (++arrived === 2) open();
          await barrier;
        }
        return rec;
      };
    }
    await Promise.all([a.bot.handleUpdate(first), b.bot.handleUpdate(second)]);
    const released = a.sandbox.calls("/deposit/instant").filter((c) => c.body.action === "true");
    const final = (await a.store.getTx(tx.refId))!;
    expect(released).toHaveLength(1);
    expect(final.detail).toMatchObject({ instant: "done" });
    const alerts = [...a.fake.callsOf("answerCallbackQuery"), ...b.fake.callsOf("answerCallbackQuery")].map((c) => String(c.payload.text));
    expect(alerts.some((t) => /sudah/i.test(t))).toBe(true);
  });
});
