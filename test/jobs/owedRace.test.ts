/**
 * Two updates from a chat that came back, at once: each asks for the notices it missed. The second
 * may read the record after the first sent the notice but before it dropped the owed mark: the
 * notice must still go out once.
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

it("an owed notice goes out once when a second return reads the record between the send and the mark's removal", async () => {
  const s = (store = await openStore(await tempDir()));
  await s.updateChat(5, { owedNotices: true });
  await s.createTx({ refId: "TO1", chatId: 5, kind: "prepaid", status: "success", amount: 10_000, code: "S10", target: "0812" } as never);
  await s.updateTx("TO1", { watch: { nextCheckAt: 0, attempts: 1, owed: "success" } as never });

  let sent = 0;
  const notifier = { deliver: async () => (sent++, "sent") } as unknown as Notifier;
  const protocol = new NoticeProtocol(s, notifier, silentLogger);
  const noRetry = () => undefined;
  // The first return's view of the store runs the second return whole at its first plain write of
  // the transaction after announcing: the moment the notice is out and the owed mark not yet gone.
  let second: Promise<void> | undefined;
  const firstView = new Proxy(s, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== "function") return v;
      if (prop !== "updateTx") return v.bind(target);
      return async (...args: unknown[]) => {
        second ??= sendOwed(s, protocol, 5, noRetry);
        await second;
        return (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  await sendOwed(firstView, protocol, 5, noRetry);
  await second;
  expect(sent).toBe(1);
  expect((await s.getTx("TO1"))?.watch).not.toHaveProperty("owed");
});
