/**
 * Two returns of a chat that overlap (its update, then another, or the retry timer): the second must
 * not take the first's notice, still on its way, for one a crash may have left half sent. It would
 * edit the original and, when that edit fails too, send the notice a second time. Found by the chaos
 * run (test/chaos, seed 201).
 */
import { afterEach, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import type { Store } from "../../src/store/index.js";
import { NoticeProtocol } from "../../src/jobs/watcher/announce.js";
import type { Notifier } from "../../src/jobs/watcher/notify.js";
import { sendOwed } from "../../src/jobs/watcher/owed.js";
import { openStore, tempDir } from "../store/helpers.js";

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

it("an owed notice on its way when the chat returns again goes out once", async () => {
  const s = (store = await openStore(await tempDir()));
  await s.updateChat(5, { owedNotices: true });
  await s.createTx({ refId: "TO2", chatId: 5, kind: "prepaid", status: "success", amount: 10_000, code: "S10", target: "0812", messageId: 9 } as never);
  await s.updateTx("TO2", { watch: { nextCheckAt: 0, attempts: 1, owed: "success" } as never });

  // Every call the two returns make on the store, to see whether the second starts while the first is away.
  let storeCalls = 0;
  const seen = new Proxy(s, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        storeCalls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });

  let sent = 0;
  let onItsWay!: () => void;
  const firstOnItsWay = new Promise<void>((resolve) => (onItsWay = resolve));
  let arrive!: () => void;
  const arrival = new Promise<void>((resolve) => (arrive = resolve));
  let first = true;
  // The first delivery is slow (a paced send); any other finds the original message impossible to
  // edit (Telegram timing out) and sends the notice itself, as Notifier.deliver does.
  const notifier = {
    deliver: async () => {
      if (first) {
        first = false;
        onItsWay();
        await arrival;
      }
      sent++;
      return "sent";
    },
  } as unknown as Notifier;
  const protocol = new NoticeProtocol(seen, notifier, silentLogger);
  const noRetry = () => undefined;

  const firstReturn = sendOwed(seen, protocol, 5, noRetry);
  await firstOnItsWay; // marked "maybe sent" and flushed, held in the notifier (no store call until it arrives)
  const callsBefore = storeCalls;
  let secondSettled = false;
  const secondReturn = sendOwed(seen, protocol, 5, noRetry).finally(() => (secondSettled = true));
  // One turn of the event loop runs every step that waits on nothing but promises: a second return that
  // does not wait for the first has asked the store by now. If it did, it goes as far as it can before
  // the first notice arrives (the interleaving that sent it twice).
  await new Promise((resolve) => setImmediate(resolve));
  if (storeCalls > callsBefore) await vi.waitFor(() => expect(secondSettled).toBe(true));
  arrive();
  await Promise.all([firstReturn, secondReturn]);
  expect(sent).toBe(1);
  expect((await s.getTx("TO2"))?.watch).not.toHaveProperty("owed");
});
