/**
 * A status refresh and a deposit's cancel claim on the same record: the refresh reads the record
 * after its provider lookup and writes the detail back whole, so a claim made between its read and
 * its write must not be written over (the claim is saved before /deposit/cancel is called).
 */
import { afterEach, expect, it } from "vitest";
import { claimCancel } from "../../src/domain/depositClaims.js";
import { newRefId } from "../../src/bot/money/refs.js";
import { DEFAULT_DEPOSIT_LATE_MS, refreshTx } from "../../src/domain/refresh.js";
import { detailOf, type Store } from "../../src/store/index.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
afterEach(() => w?.close());

/** The world's store, except that right after the refresh's first read of `refId` a cancel is claimed. */
function claimingAfterFirstRead(refId: string): { store: Store; claimedAt: () => number | undefined } {
  let claimedAt: number | undefined;
  const store = new Proxy(w.store, {
    get(target, prop) {
      if (prop === "getTx") {
        return async (id: string) => {
          const read = await target.getTx(id);
          if (id === refId && claimedAt === undefined) {
            const claimed = await claimCancel(w.deps.ledger, w.clock.now(), refId);
            claimedAt = claimed && claimed !== "taken" ? detailOf(claimed, "deposit").cancelling : undefined;
          }
          return read;
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, claimedAt: () => claimedAt };
}

it("a cancel claimed between the refresh's read and its write is kept, and what the refresh learned is saved too", async () => {
  w = await makeWorld({ watcher: false });
  const u = await w.linkedUser({ languageCode: "id" });
  const refId = newRefId("deposit", w.clock.now());
  const d = await w.upstream.createDeposit(w.demoKey, { reffId: refId, amount: 50_000, type: "ewallet", method: "qris" });
  // Without what lands in the balance: the refresh learns it and so writes the detail.
  const tx = await w.store.createTx({
    refId, chatId: u.chatId, kind: "deposit", status: "pending", upstreamId: d.id, code: "qris", title: "QRIS",
    amount: d.amount, fee: d.fee, detail: { expiresAt: d.expiresAt!.getTime(), photo: true },
  });
  await w.store.flush();

  const racing = claimingAfterFirstRead(refId);
  await refreshTx({ store: racing.store, upstream: w.upstream, clock: w.clock }, w.demoKey, tx, { depositLateMs: DEFAULT_DEPOSIT_LATE_MS });

  expect(racing.claimedAt()).toBeDefined();
  const saved = (await w.store.getTx(refId))!;
  expect(saved.status).toBe("pending");
  expect(detailOf(saved, "deposit")).toMatchObject({ cancelling: racing.claimedAt(), credited: d.credited, photo: true });
  // The claim still stands: a second tap is told another cancel runs.
  expect(await claimCancel(w.deps.ledger, w.clock.now(), refId)).toBe("taken");
});
