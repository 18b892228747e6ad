/**
 * A downline's Confirm tapped twice, each tap reaching another bot process behind the load balancer
 * (one PostgreSQL, one provider; each process its own copy of every module): one create, one hold, one
 * debit (docs/wallets.md).
 */
import type { Update } from "grammy/types";
import { afterEach, describe, expect, it } from "vitest";
import { hasPg } from "../support/pg.js";
import { bothReadFirst, twoProcesses } from "../support/twoProcesses.js";
import type { World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { costOf, CREATE, debitsOf, fund, GOLD_MARKUP, rinaAndAndi } from "./support.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const x of worlds.splice(0)) await x.close().catch(() => undefined);
});

describe.skipIf(!hasPg)("a downline's Confirm on two processes", { timeout: 60_000 }, () => {
  it("one create, one hold, one debit", async () => {
    const [a, b] = await twoProcesses(worlds, { watcher: true });
    const { rina, andi } = await rinaAndAndi(a);
    await fund(a, rina, "Andi", 30_000);
    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    const price = (await costOf(a, "S10")) + GOLD_MARKUP;
    const tx = (await a.store.listTxByChat(rina.chatId)).items.find((t) => t.status === "draft")!;
    const first = andi.callbackUpdate(/Konfirmasi/);
    const second: Update = structuredClone(first);
    second.update_id = first.update_id + 5000;
    second.callback_query!.id = `${first.callback_query!.id}-b`;
    bothReadFirst([a, b], tx.refId, (rec) => rec.status === "draft");
    await Promise.all([a.bot.handleUpdate(first), b.bot.handleUpdate(second)]);
    expect(a.sandbox.calls(CREATE)).toHaveLength(1);
    expect(await a.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: price, available: 30_000 - price });
    await run(a, 30_000);
    await a.app.deps.wallets.idle();
    await b.app.deps.wallets.idle();
    expect(await a.store.getTx(tx.refId)).toMatchObject({ status: "success", wallet: { state: "posted" } });
    expect(await debitsOf(a, andi.chatId, tx.refId)).toBe(1);
    expect(await a.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000 - price, held: 0, available: 30_000 - price });
  });
});
