/**
 * The flow storage adapter (bot/flowStorage.ts) over a real store: each update saves with a
 * compare-and-set on the version it read, so a second process's step is never overwritten.
 */
import { describe, expect, it } from "vitest";
import { FLOW_STATE_VERSION, flowStorage as adapter } from "../../src/bot/flowStorage.js";
import type { BotContext } from "../../src/bot/context.js";
import { openStore, tempDir } from "./helpers.js";

const update = (chatId: number) => ({ chatId, update: { update_id: chatId } }) as BotContext;
const warnings: unknown[] = [];
const flowStorage = (store: Parameters<typeof adapter>[0]) => adapter(store, { warn: (obj: unknown) => void warnings.push(obj) });
const state = (step: number) => ({ version: [0, FLOW_STATE_VERSION] as [0, number], state: { buy: [{ step }] } as never });

describe("flow storage", () => {
  it("of two updates that read the same flow, the second to save is not saved over the first, whose state stands", async () => {
    const store = await openStore(await tempDir());
    const a = flowStorage(store);
    const b = flowStorage(store); // another process's adapter
    const seed = update(7);
    await a.read(seed);
    await a.write(seed, state(1));

    const mine = update(7);
    const theirs = update(7);
    expect(await a.read(mine)).toEqual(state(1));
    expect(await b.read(theirs)).toEqual(state(1));
    await b.write(theirs, state(2));
    warnings.length = 0;
    await a.write(mine, state(3));
    await a.delete(mine);
    expect((await store.getFlow(7)).state).toEqual(state(2));
    expect(warnings).toHaveLength(2);

    // One update may save more than once: each save expects its own last one.
    const next = update(7);
    await a.read(next);
    await a.write(next, state(4));
    await a.delete(next);
    expect((await store.getFlow(7)).state).toBeUndefined();
  });

  it("a flow saved under another FLOW_STATE_VERSION is dropped and the update marked flowLost", async () => {
    const store = await openStore(await tempDir());
    await store.setFlow(3, { version: [0, FLOW_STATE_VERSION - 1], state: { buy: [] } }, 0);
    const ctx = update(3);
    expect(await flowStorage(store).read(ctx)).toBeUndefined();
    expect(ctx.flowLost).toBe(true);
    expect(await store.getFlow(3)).toEqual({ state: undefined, version: 2 });
    // The same update may start a new flow after that: its save expects the version of the drop.
    const same = flowStorage(store);
    const again = update(3);
    await same.read(again);
    await same.write(again, state(1));
    expect(await store.getFlow(3)).toEqual({ state: state(1), version: 3 });
  });
});
