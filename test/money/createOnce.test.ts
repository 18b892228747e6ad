/**
 * The money engine's fault table, once: whatever fails or stops between two steps, a create is made at
 * most once per record, never without its "sending" mark on disk, and an unclear outcome is never saved as
 * failed or as success. A crash is a copy of the store's folder taken while the store is still open (its
 * last flush never runs), opened as a new store. The callers' tests keep only what they add.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { TxEvents } from "../../src/domain/events.js";
import { Ledger } from "../../src/domain/ledger.js";
import { silentLogger } from "../../src/logging/logger.js";
import { MoneyEngine, type Create } from "../../src/money/createOnce.js";
import { FileStore } from "../../src/store/file/fileStore.js";
import type { TxRecord, TxStatus } from "../../src/store/index.js";
import { ManualClock } from "../../src/tools/clock.js";
import { UpstreamRejected, UpstreamUnavailable, UpstreamUnexpected } from "../../src/upstream/errors.js";
import { openStore, SECRET, tempDir } from "../store/helpers.js";

const CREATE = "/transaksi/create";

interface Bench {
  store: FileStore;
  ledger: Ledger;
  engine: MoneyEngine;
  /** Every "created" event, in order. */
  created: Readonly<TxRecord>[];
}

async function bench(): Promise<Bench> {
  const store = await openStore(await tempDir());
  const ledger = new Ledger(store);
  const events = new TxEvents(silentLogger);
  const created: Readonly<TxRecord>[] = [];
  events.on("created", (tx) => void created.push(tx));
  return { store, ledger, engine: new MoneyEngine({ ledger, events, logger: silentLogger }), created };
}

/** The status a crash right now would leave on disk (undefined: no record). */
async function afterCrash(store: FileStore, refId: string): Promise<TxStatus | undefined> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-engine-crash-"));
  await cp(store.path, join(dir, "store"), { recursive: true });
  const reopened = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock() });
  onTestFinished(async () => {
    await reopened.close();
    await rm(dir, { recursive: true, force: true });
  });
  return (await reopened.getTx(refId))?.status;
}

let seq = 0;
async function reserved(b: Bench, durable = false): Promise<string> {
  const refId = `T-ENGINE-${++seq}`;
  await b.engine.reserve({ refId, chatId: 7, kind: "prepaid", status: "draft", code: "S10", target: "081234567890", amount: 10_500 }, durable);
  return refId;
}

/** A create that counts its calls and answers `answer` (or throws it). */
function createThat(answer: Partial<TxRecord> | Error): Create & { calls: number } {
  const create = Object.assign(
    async () => {
      create.calls++;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    { calls: 0 },
  );
  return create;
}

describe("money engine: reserve and claim", () => {
  it("a draft reserved without durability is not on disk; a claim makes it 'sending' on disk before it resolves", async () => {
    const b = await bench();
    const refId = await reserved(b);
    expect(await afterCrash(b.store, refId)).toBeUndefined(); // nothing sent, nothing to look up: the caller makes it again
    const claim = await b.engine.claim(refId);
    expect(claim).toMatchObject({ claimed: true, tx: { status: "sending" } });
    expect(await afterCrash(b.store, refId)).toBe("sending"); // the watcher's to look up by the reference
  });

  it("a durable reserve is a draft on disk at once (a confirm screen waiting for its tap)", async () => {
    const b = await bench();
    const refId = await reserved(b, true);
    expect(await afterCrash(b.store, refId)).toBe("draft");
  });

  it("a double tap claims once: the second finds it taken and one create is made", async () => {
    const b = await bench();
    const refId = await reserved(b);
    const create = createThat({ status: "pending", upstreamId: "P1" });
    const [first, second] = await Promise.all([b.engine.claimAndSend(refId, create), b.engine.claimAndSend(refId, create)]);
    expect([first.claim.claimed, second.claim.claimed].sort()).toEqual([false, true]);
    const lost = first.claim.claimed ? second.claim : first.claim;
    expect(lost).toMatchObject({ claimed: false, reason: "taken" });
    expect(create.calls).toBe(1);
  });

  it("a cancelled draft is not claimed: nothing is sent and the caller sees it cancelled", async () => {
    const b = await bench();
    const refId = await reserved(b);
    await b.ledger.cancelDraft(refId);
    const create = createThat({ status: "pending" });
    const { claim, outcome } = await b.engine.claimAndSend(refId, create);
    expect(claim).toMatchObject({ claimed: false, reason: "taken", current: { status: "cancel" } });
    expect(outcome).toBeUndefined();
    expect(create.calls).toBe(0);
  });

  it("the store refuses the sending mark: nothing is sent, the record is a draft again, and a later claim sends once", async () => {
    const b = await bench();
    const refId = await reserved(b, true);
    const refuse = vi.spyOn(b.store, "flushTx").mockRejectedValueOnce(new Error("ENOSPC: no space left on device"));
    const create = createThat({ status: "pending" });
    const { claim } = await b.engine.claimAndSend(refId, create);
    expect(claim).toMatchObject({ claimed: false, reason: "not-saved" });
    expect(create.calls).toBe(0);
    expect((await b.ledger.get(refId))?.status).toBe("draft");
    refuse.mockRestore();
    await b.store.flush();
    expect(await afterCrash(b.store, refId)).toBe("draft"); // never "sending" on disk
    const again = await b.engine.claimAndSend(refId, create);
    expect(again.outcome).toMatchObject({ kind: "answered", tx: { status: "pending" } });
    expect(create.calls).toBe(1);
  });
});

describe("money engine: the one create and its outcome", () => {
  it("an answer is saved over 'sending', durable, and 'created' is emitted once with it", async () => {
    const b = await bench();
    const refId = await reserved(b);
    const { outcome } = await b.engine.claimAndSend(refId, createThat({ upstreamId: "P9", sn: "SN1", status: "success" }));
    expect(outcome).toMatchObject({ kind: "answered", tx: { status: "success", upstreamId: "P9", sn: "SN1" } });
    expect(await afterCrash(b.store, refId)).toBe("success");
    expect(b.created.map((t) => [t.refId, t.status])).toEqual([[refId, "success"]]);
  });

  it("an answer without a status is pending (the provider took it)", async () => {
    const b = await bench();
    const { outcome } = await b.engine.claimAndSend(await reserved(b), createThat({ upstreamId: "P2" }));
    expect(outcome).toMatchObject({ kind: "answered", tx: { status: "pending" } });
  });

  it("a refusal is failed, with the provider's words: nothing moved", async () => {
    const b = await bench();
    const refId = await reserved(b);
    const { outcome } = await b.engine.claimAndSend(refId, createThat(new UpstreamRejected(CREATE, "Saldo tidak cukup")));
    expect(outcome).toMatchObject({ kind: "rejected", tx: { status: "failed", message: "Saldo tidak cukup" } });
    expect(await afterCrash(b.store, refId)).toBe("failed");
  });

  it.each([
    ["a timeout", new UpstreamUnavailable(CREATE, "timeout", { outcomeUnknown: true })],
    ["an HTML page (Cloudflare)", new UpstreamUnavailable(CREATE, "html", { outcomeUnknown: true, httpStatus: 200 })],
    ["a 502", new UpstreamUnavailable(CREATE, "http", { outcomeUnknown: true, httpStatus: 502 })],
    ["an answer it cannot read", new UpstreamUnexpected(CREATE, "data.id", "missing", true)],
  ])("%s is unknown, never failed: the money may have moved, and it is never sent again", async (_name, error) => {
    const b = await bench();
    const refId = await reserved(b);
    const create = createThat(error);
    const { outcome } = await b.engine.claimAndSend(refId, create);
    expect(outcome).toMatchObject({ kind: "unknown", tx: { status: "unknown" } });
    expect(await afterCrash(b.store, refId)).toBe("unknown");
    expect((await b.engine.claimAndSend(refId, create)).claim).toMatchObject({ claimed: false, reason: "taken" });
    expect(create.calls).toBe(1);
    expect(b.created).toHaveLength(1);
  });

  it("a bug in the create (not the provider's answer) is saved as unknown and thrown: the request may have gone out", async () => {
    const b = await bench();
    const refId = await reserved(b);
    await expect(b.engine.claimAndSend(refId, createThat(new TypeError("x is undefined")))).rejects.toThrow(TypeError);
    expect(await afterCrash(b.store, refId)).toBe("unknown");
    expect(b.created.map((t) => t.status)).toEqual(["unknown"]);
  });

  it("a status check elsewhere settled it during the create: what it saved stands, and the outcome says so", async () => {
    const b = await bench();
    const refId = await reserved(b);
    const create: Create = async () => {
      // The watcher (or /status on another process) found it and saved the success first.
      await b.ledger.transition(refId, ["sending"], { status: "success", sn: "FROM-STATUS" });
      throw new UpstreamUnavailable(CREATE, "timeout", { outcomeUnknown: true });
    };
    const { outcome } = await b.engine.claimAndSend(refId, create);
    expect(outcome).toMatchObject({ kind: "elsewhere", tx: { status: "success", sn: "FROM-STATUS" } });
    expect((await b.ledger.get(refId))?.status).toBe("success");
  });

  it("the store refuses the answer: the record stays 'sending' (on disk and in memory) for the watcher, and nothing says failed", async () => {
    const b = await bench();
    const refId = await reserved(b);
    const claim = await b.engine.claim(refId);
    if (!claim.claimed) throw new Error("not claimed");
    const refuse = vi.spyOn(b.store, "flushTx").mockRejectedValue(new Error("EROFS: read-only file system"));
    const outcome = await b.engine.send(claim.tx, createThat({ status: "success", sn: "SN" }));
    expect(outcome).toMatchObject({ kind: "unsaved", tx: { status: "sending" } });
    expect(refuse).toHaveBeenCalledTimes(3);
    expect((await b.ledger.get(refId))?.status).toBe("sending");
    expect(await afterCrash(b.store, refId)).toBe("sending");
    expect(b.created.map((t) => t.status)).toEqual(["sending"]); // the watcher follows it from now
  });

  it("a crash during the create leaves 'sending' on disk; one after the answer leaves the answer", async () => {
    const b = await bench();
    const refId = await reserved(b);
    let onDiskDuringCreate: TxStatus | undefined;
    await b.engine.claimAndSend(refId, async () => {
      onDiskDuringCreate = await afterCrash(b.store, refId);
      return { status: "pending", upstreamId: "P3" };
    });
    expect(onDiskDuringCreate).toBe("sending");
    expect(await afterCrash(b.store, refId)).toBe("pending");
  });

  it("emit: false leaves 'created' to the caller, which tells it once its own step is done", async () => {
    const b = await bench();
    const refId = await reserved(b);
    const claim = await b.engine.claim(refId);
    if (!claim.claimed) throw new Error("not claimed");
    const outcome = await b.engine.send(claim.tx, createThat({ status: "pending" }), { emit: false });
    expect(b.created).toHaveLength(0);
    b.engine.created(outcome.tx);
    expect(b.created.map((t) => t.status)).toEqual(["pending"]);
  });
});
