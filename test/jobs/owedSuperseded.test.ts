/**
 * A notice still owed to a chat (it had blocked the bot) is ended by a newer notice of the same
 * transaction that got through: a paid deposit owed "processing", then told "success", must not get the
 * "processing" notice (nor its caption) afterwards. And while the newer notice is in flight (its marker
 * kept for a retry), the chat's return leaves the record to it.
 */
import { afterEach, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import type { Store } from "../../src/store/index.js";
import { NoticeProtocol } from "../../src/jobs/watcher/announce.js";
import type { NoticeKind, NoticeOutcome, Notifier } from "../../src/jobs/watcher/notify.js";
import { sendOwed } from "../../src/jobs/watcher/owed.js";
import { openStore, tempDir } from "../store/helpers.js";

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function paidDeposit(s: Store, watch: object): Promise<void> {
  await s.updateChat(5, { owedNotices: true });
  await s.createTx({ refId: "DP1", chatId: 5, kind: "deposit", status: "processing", amount: 50_000, code: "qris" } as never);
  await s.updateTx("DP1", { watch: { nextCheckAt: 0, attempts: 1, ...watch } as never });
}

function notifier(outcome: NoticeOutcome): { notifier: Notifier; told: NoticeKind[] } {
  const told: NoticeKind[] = [];
  return { told, notifier: { deliver: async (_l: unknown, _t: unknown, kind: NoticeKind) => (told.push(kind), outcome) } as unknown as Notifier };
}

it("an owed 'processing' is not sent after the deposit's success was told", async () => {
  const s = (store = await openStore(await tempDir()));
  await paidDeposit(s, { owed: "processing" });
  const { notifier: n, told } = notifier("sent");
  const protocol = new NoticeProtocol(s, n, silentLogger);
  expect(await protocol.announce((await s.getTx("DP1"))!, "success", {}, "success")).toBe(true);
  expect((await s.getTx("DP1"))?.watch).not.toHaveProperty("owed");
  await sendOwed(s, protocol, 5, () => undefined);
  expect(told).toEqual(["success"]);
});

it("a return while the success notice waits for its retry leaves the record to that retry", async () => {
  const s = (store = await openStore(await tempDir()));
  await paidDeposit(s, { owed: "processing", announcing: "success", claim: 1 });
  const { notifier: n, told } = notifier("sent");
  await sendOwed(s, new NoticeProtocol(s, n, silentLogger), 5, () => undefined);
  expect(told).toEqual([]);
  expect((await s.getTx("DP1"))?.watch).toMatchObject({ announcing: "success" });
});
