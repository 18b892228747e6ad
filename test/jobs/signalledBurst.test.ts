/**
 * A burst of signed provider callbacks on one key (a shop's orders paid together): with the watcher's
 * default limits, each status call taking 20 ms to answer, 160 changes are all checked within about
 * 160 / 32 x 20 ms, never more calls in flight than the upstream client's 32 connections.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Api } from "grammy";
import { silentLogger } from "../../src/logging/logger.js";
import type { PrepaidTransaction } from "../../src/upstream/types.js";
import type { StatusApi } from "../../src/domain/refresh.js";
import { StatusWatcher } from "../../src/jobs/watcher/watcher.js";
import { UPSTREAM_CONNECTIONS } from "../../src/upstream/client.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeWorld, type World } from "../support/world.js";

let w: World | undefined;
let watcher: StatusWatcher | undefined;
/** Lets the checks' store work and their next calls run (no wall-clock wait: a macrotask turn each). */
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};
afterEach(async () => {
  const stopping = watcher?.stop();
  for (let i = 0; i < 50 && w; i++) {
    await w.clock.advance(ANSWER_MS);
    await turns(2);
  }
  await stopping;
  watcher = undefined;
  await w?.close();
  w = undefined;
});

const ANSWER_MS = 20;

describe("status watcher: a burst of signed callbacks on one key", () => {
  it("160 changes, each status call answering in 20 ms: all checked within 150 ms, at most UPSTREAM_CONNECTIONS (32) calls in flight", async () => {
    w = await makeWorld();
    const world = w;
    const u = await world.linkedUser({ key: "SHOP-KEY" });
    let inflight = 0;
    let most = 0;
    const answeredAt = new Map<string, number>();
    const upstream = {
      async prepaidStatus(_key: string, id: string): Promise<PrepaidTransaction> {
        inflight++;
        most = Math.max(most, inflight);
        await new Promise<void>((resolve) => world.clock.setTimeout(resolve, ANSWER_MS));
        inflight--;
        answeredAt.set(id, world.clock.now());
        return { id, reffId: "", productName: "PLN 20.000", code: "PLN20", target: "12345678901", price: 20_113, sn: "1234-5678", status: "success", createdAt: null };
      },
    } as unknown as StatusApi;
    const refs: string[] = [];
    for (let i = 0; i < 160; i++) {
      const refId = `TP260115B${String(i).padStart(4, "0")}`;
      await world.store.createTx({ refId, chatId: u.chatId, kind: "prepaid", status: "pending", upstreamId: `up-${i}`, code: "PLN20", target: "12345678901", amount: 20_113 });
      refs.push(refId);
    }
    watcher = new StatusWatcher({
      store: world.store,
      upstream,
      api: new Api(FAKE_BOT_TOKEN, { fetch: world.fake.fetch as never }),
      clock: world.clock,
      logger: silentLogger,
      translate: world.app.translate,
      toldElsewhere: () => true,
    });
    await watcher.start();
    const t0 = world.clock.now();
    for (const refId of refs) await watcher.hurry(refId, true);
    for (let t = 0; t < 2_000 && answeredAt.size < refs.length; t += 10) {
      await world.clock.advance(10);
      await turns();
    }
    expect(answeredAt.size).toBe(160);
    expect(Math.max(...answeredAt.values()) - t0).toBeLessThanOrEqual(150);
    expect(most).toBeLessThanOrEqual(UPSTREAM_CONNECTIONS);
    expect(UPSTREAM_CONNECTIONS).toBe(32);
    for (const refId of refs) expect((await world.store.getTx(refId))!.status).toBe("success");
  });
});
