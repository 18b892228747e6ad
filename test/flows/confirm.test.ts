/** The confirm engine under restarts and Telegram faults, through the real top-up fast path. */
import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/api.js";
import { makeWorld, type World } from "../support/world.js";

const CREATE = "/transaksi/create";
const CONFIRM = /Konfirmasi|Confirm/;
let w: World;
afterEach(() => w?.close());

it("a confirm screen survives a restart: Confirm afterwards creates exactly once", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("topup", "S10 081234567890");
  expect(u.buttons()).toContain("✅ Confirm");
  const press = u.callbackUpdate(CONFIRM);
  await w.restart();
  await u.deliver(press);
  await u.deliver(structuredClone(press)); // Telegram re-delivers after a restart
  expect(u.lastReply()).toContain("Processing");
  expect(w.sandbox.calls(CREATE)).toHaveLength(1);
  const [tx] = (await w.store.listTxByChat(u.chatId)).items;
  expect(tx).toMatchObject({ status: "pending", code: "S10" });
  expect(w.sandbox.calls(CREATE)[0]!.body.reff_id).toBe(tx!.refId);
});

it("a Telegram failure while answering the button still sends the confirmed purchase once", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("beli", "S10 081234567890");
  // Answering late: Telegram refuses; the edit fails too. Neither may stop the purchase.
  const tooOld = { error_code: 400, description: "Bad Request: query is too old and response timeout expired or query ID is invalid" };
  w.fake.failNext("answerCallbackQuery", tooOld, { times: 10 });
  w.fake.failNext("editMessageReplyMarkup", { error_code: 400, description: "Bad Request: message to edit not found" }, { times: 10 });
  await u.pressButton(CONFIRM);
  expect(w.sandbox.calls(CREATE)).toHaveLength(1);
  expect((await w.store.listTxByChat(u.chatId)).items[0]!.status).toBe("pending");
  expect(u.lastReply()).toContain("Diproses");
});

it("a confirm screen older than 10 minutes is refused and nothing is created", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("topup", "S10 081234567890");
  await w.clock.advance(10 * 60_000 + 1);
  await u.pressButton(CONFIRM);
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  const alert = w.fake.lastCall("answerCallbackQuery")!.payload;
  expect(String(alert.text)).toContain("expired");
  expect((await w.store.listTxByChat(u.chatId)).items[0]?.status).toBe("cancel");
});

it("a failed write at Confirm sends nothing, says so plainly, and the same Confirm works once the disk is back", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("topup", "S10 081234567890");
  const [draft] = (await w.store.listTxByChat(u.chatId)).items;
  // The disk (or the database) fails: every store write fails until it is repaired.
  await w.breakStore();
  await u.pressButton(CONFIRM);
  expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  const told = u.replies().join("\n") + String(w.fake.lastCall("answerCallbackQuery")!.payload.text);
  // The file store fails at the step's write ("press Confirm again"); PgStore already at the first
  // read of the update ("the bot's storage has a problem ... try again"): the same news for the user.
  expect(told).toMatch(/Nothing was sent|no transaction was sent/);
  expect(told).toMatch(/press Confirm again|try again in a moment/);
  expect(told).not.toMatch(/Outcome unknown|already processed/);
  // Background retries while the disk is still full, then it frees up: "sending" never reaches the disk.
  await w.clock.advance(5000);
  await w.repairStore();
  expect((await w.store.getTx(draft!.refId))!.status).toBe("draft");
  await w.store.flush();
  await w.restart();
  expect((await w.store.getTx(draft!.refId))!.status).toBe("draft");
  await u.pressButton(CONFIRM);
  expect(w.sandbox.calls(CREATE)).toHaveLength(1);
  expect(u.lastReply()).toContain("Processing");
});

it("Try again pressed twice makes one new confirm screen, not two", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("topup", "S10 081234567890");
  w.sandbox.setBalance(w.demoKey, 0); // after the confirm screen: the provider itself refuses
  await u.pressButton(CONFIRM);
  expect(u.buttons()).toContain("🔁 Try again");
  w.sandbox.setBalance(w.demoKey, 1_000_000);
  // A double tap: two callback queries from the same button.
  const first = u.callbackUpdate("🔁 Try again");
  const second = u.callbackUpdate("🔁 Try again");
  await Promise.all([u.deliver(first), u.deliver(second)]);
  const drafts = (await w.store.listTxByChat(u.chatId)).items.filter((t) => t.status === "draft");
  expect(drafts).toHaveLength(1);
  const screens = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && /Check before you confirm/.test(String(c.payload.text)));
  expect(screens).toHaveLength(2); // the original + one retry
  const answers = w.fake.callsOf("answerCallbackQuery").slice(-2).map((c) => String(c.payload.text ?? ""));
  expect(answers.join(" ")).toContain("already");
});

describe("the store fails right after the provider accepted the create", () => {
  it("says the money may have moved and not to repeat, never 'try again'; the watcher settles it once the store works", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("beli", "S10 081234567890");
    const store = w.store as { updateTx: Store["updateTx"]; transitionTx: Store["transitionTx"] };
    const updateTx = store.updateTx.bind(w.store);
    const transitionTx = store.transitionTx.bind(w.store);
    const upstream = w.deps.upstream;
    const create = upstream.createTransaction.bind(upstream);
    // The database goes away while the provider answers.
    (upstream as { createTransaction: unknown }).createTransaction = async (...args: Parameters<typeof create>) => {
      const out = await create(...args);
      const gone = () => Promise.reject(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
      store.updateTx = gone;
      store.transitionTx = gone;
      return out;
    };
    await u.pressButton(/Confirm/);
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);
    const told = u.replies().join("\n");
    expect(told).toContain("Do not repeat this transaction");
    expect(told).not.toMatch(/something went wrong|Nothing was sent/);
    const [tx] = (await w.store.listTxByChat(u.chatId)).items;
    expect(tx!.status).toBe("sending"); // saved before the call: the watcher looks it up by our reference

    store.updateTx = updateTx; // the store works again
    store.transitionTx = transitionTx;
    w.sandbox.settle(tx!.refId, "success");
    // Step by step: with PostgreSQL each step's store reads take real time before the next timer is set.
    for (let i = 0; i < 20 && (await w.store.getTx(tx!.refId))!.status !== "success"; i++) {
      await w.clock.advance(10_000);
      await w.watcher!.whenIdle();
    }
    expect((await w.store.getTx(tx!.refId))!.status).toBe("success");
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);
  });
});
