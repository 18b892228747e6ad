import type { Update } from "grammy/types";
import { afterEach, describe, expect, it } from "vitest";
import { hasPg } from "../support/pg.js";
import { bothReadFirst, twoProcesses } from "../support/twoProcesses.js";
import type { World } from "../support/world.js";
import { until } from "../support/settle.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const x of worlds.splice(0)) await x.close().catch(() => undefined);
});

/** `x`'s first read of `refId` returns what it read only after `go()`: a process stalled after its read. */
function readsThenWaits(x: World, refId: string): { read: () => boolean; go: () => void } {
  let read = false;
  let go!: () => void;
  const gate = new Promise<void>((r) => (go = r));
  const st = x.store;
  const orig = st.getTx.bind(st);
  (st as { getTx: unknown }).getTx = async (ref: string) => {
    const rec = await orig(ref);
    if (ref === refId && !read) {
      read = true;
      await gate;
    }
    return rec;
  };
  return { read: () => read, go };
}

/**
 * Behind a load balancer the two taps of a double tap on "release now" reach two processes (one
 * PostgreSQL). Each process has its own copy of every module, so an in-process guard cannot help.
 */
// Each test loads the whole app twice and opens a database: on a loaded machine that alone can take
// most of the suite's 20 s, so the bound is wider here (nothing in these tests waits on time).
describe.skipIf(!hasPg)("deposit buttons pressed on two processes", { timeout: 60_000 }, () => {
  it("the provider is asked to release once, the record keeps the winner's result, the other tap is told it is already done", async () => {
    const [a, b] = await twoProcesses(worlds);
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
    // The double tap: each tap reaches another process behind the load balancer.
    bothReadFirst([a, b], tx.refId, (rec) => rec.kind === "deposit" && rec.detail?.instant === undefined);
    await Promise.all([a.bot.handleUpdate(first), b.bot.handleUpdate(second)]);
    const released = a.sandbox.calls("/deposit/instant").filter((c) => c.body.action === "true");
    const final = (await a.store.getTx(tx.refId))!;
    expect(released).toHaveLength(1);
    expect(final.detail).toMatchObject({ instant: "done" });
    const alerts = [...a.fake.callsOf("answerCallbackQuery"), ...b.fake.callsOf("answerCallbackQuery")].map((c) => String(c.payload.text));
    expect(alerts.some((t) => /sudah/i.test(t))).toBe(true);
  });

  it("'Ya, batalkan' tapped on two processes cancels at the provider once; the other tap says nothing more", async () => {
    const [a, b] = await twoProcesses(worlds);
    const u = await a.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    for (let page = 0; page < 5 && !u.findButton(/^QRIS · /); page++) await u.pressButton(/Berikutnya|Next/);
    await u.pressButton(/^QRIS · /);
    await u.sendText("50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = (await a.store.listTxByChat(u.chatId)).items[0]!;
    await u.pressButton("🚫 Batalkan deposit");
    const first = u.callbackUpdate("🚫 Ya, batalkan");
    const second = u.callbackUpdate("🚫 Ya, batalkan");
    second.update_id = first.update_id + 5000;
    bothReadFirst([a, b], tx.refId, (rec) => rec.kind === "deposit" && rec.detail?.cancelling === undefined);
    await Promise.all([a.bot.handleUpdate(first), b.bot.handleUpdate(second)]);
    expect(a.sandbox.calls("/deposit/cancel")).toHaveLength(1);
    const final = (await a.store.getTx(tx.refId))!;
    expect(final.status).toBe("cancel");
    expect(final.detail).not.toHaveProperty("cancelling");
    const said = [...a.fake.callsOf("sendMessage"), ...b.fake.callsOf("sendMessage")].map((c) => String(c.payload.text));
    expect(said.filter((t) => t.includes("tidak bisa dibatalkan"))).toEqual([]);
  });

  it("'Ya, batalkan' on a slow process that read the deposit before the other tap cancelled it says nothing more either", async () => {
    const [a, b] = await twoProcesses(worlds);
    const u = await a.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    for (let page = 0; page < 5 && !u.findButton(/^QRIS · /); page++) await u.pressButton(/Berikutnya|Next/);
    await u.pressButton(/^QRIS · /);
    await u.sendText("50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = (await a.store.listTxByChat(u.chatId)).items[0]!;
    await u.pressButton("🚫 Batalkan deposit");
    const first = u.callbackUpdate("🚫 Ya, batalkan");
    const second = u.callbackUpdate("🚫 Ya, batalkan");
    second.update_id = first.update_id + 5000;
    // B's tap reads the pending deposit, then its process stalls until A's tap has cancelled it.
    const stalled = readsThenWaits(b, tx.refId);
    const late = b.bot.handleUpdate(second);
    await until(() => stalled.read(), { what: "B's tap never read the deposit" });
    await a.bot.handleUpdate(first);
    stalled.go();
    await late;
    expect(a.sandbox.calls("/deposit/cancel")).toHaveLength(1);
    expect((await a.store.getTx(tx.refId))!.status).toBe("cancel");
    const said = [...a.fake.callsOf("sendMessage"), ...b.fake.callsOf("sendMessage")].map((c) => String(c.payload.text));
    const told = [...a.fake.callsOf("editMessageText"), ...b.fake.callsOf("editMessageText")].map((c) => String(c.payload.text));
    expect(told.filter((t) => t.includes("Deposit dibatalkan."))).toHaveLength(1); // the winner's answer to the question
    expect(said.filter((t) => t.includes("tidak bisa dibatalkan"))).toEqual([]);
  });

  it("Try again tapped on two processes makes one new draft (so one confirm screen, one possible create)", async () => {
    const [a, b] = await twoProcesses(worlds);
    const u = await a.linkedUser({ languageCode: "en" });
    await u.sendCommand("topup", "S10 081234567890");
    a.sandbox.setBalance(a.demoKey, 0); // the provider itself refuses
    await u.pressButton("✅ Confirm");
    expect(u.buttons()).toContain("🔁 Try again");
    a.sandbox.setBalance(a.demoKey, 1_000_000);
    const refused = (await a.store.listTxByChat(u.chatId)).items[0]!;
    const first = u.callbackUpdate("🔁 Try again");
    const second = u.callbackUpdate("🔁 Try again");
    second.update_id = first.update_id + 5000;
    bothReadFirst([a, b], refused.refId, (rec) => rec.retriedAs === undefined);
    await Promise.all([a.bot.handleUpdate(first), b.bot.handleUpdate(second)]);
    const drafts = (await a.store.listTxByChat(u.chatId)).items.filter((t) => t.status === "draft");
    expect(drafts).toHaveLength(1);
    const answers = [...a.fake.callsOf("answerCallbackQuery"), ...b.fake.callsOf("answerCallbackQuery")].map((c) => String(c.payload.text ?? ""));
    expect(answers.join(" ")).toContain("already");
  });
});
