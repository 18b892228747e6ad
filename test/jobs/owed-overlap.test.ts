/**
 * Two returns of a chat that overlap (its update, then another, or the retry timer): the second must
 * not take the first's notice, still on its way, for one a crash may have left half sent. It would
 * edit the original and, when that edit fails too, send the notice a second time. Found by the chaos
 * run (test/chaos, seed 201).
 */
import { afterEach, expect, it } from "vitest";
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

  let sent = 0;
  let arrive!: () => void;
  const onItsWay = new Promise<void>((resolve) => (arrive = resolve));
  let first = true;
  // The first delivery is slow (a paced send); any other finds the original message impossible to
  // edit (Telegram timing out) and sends the notice itself, as Notifier.deliver does.
  const notifier = {
    deliver: async () => {
      if (first) {
        first = false;
        await onItsWay;
      }
      sent++;
      return "sent";
    },
  } as unknown as Notifier;
  const protocol = new NoticeProtocol(s, notifier, silentLogger);
  const noRetry = () => undefined;

  const firstReturn = sendOwed(s, protocol, 5, noRetry);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the first is sending
  const secondReturn = sendOwed(s, protocol, 5, noRetry);
  await new Promise((resolve) => setTimeout(resolve, 50));
  arrive();
  await Promise.all([firstReturn, secondReturn]);
  expect(sent).toBe(1);
  expect((await s.getTx("TO2"))?.watch).not.toHaveProperty("owed");
});
