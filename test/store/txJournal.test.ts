/**
 * flushTx's group commit (txJournal.ts): the records of every flushTx caller waiting at one moment go
 * to the journal in one append + fsync, ahead of the shard writes; a crash after flushTx resolved keeps
 * the record, whichever of the journal line and the shard is newer; a torn last line opens cleanly.
 * A crash is a copy of the folder taken while the store is still open (its last flush never runs).
 */
import { appendFile, cp, mkdtemp, open, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, onTestFinished, vi } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { FileStore } from "../../src/store/file/fileStore.js";
import { LogFile } from "../../src/store/file/kindFiles.js";
import { StoreFile } from "../../src/store/file/shards.js";
import { openStore, SECRET, tempDir } from "./helpers.js";

/** The store's folder as a crash would leave it: copied now, opened as a new store (closed after the test). */
async function crashCopy(store: FileStore, warnings: string[] = []): Promise<FileStore> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-crashed-"));
  await cp(store.path, join(dir, "store"), { recursive: true });
  const reopened = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock(), onWarning: (m) => warnings.push(m) });
  onTestFinished(async () => {
    await reopened.close();
    await rm(dir, { recursive: true, force: true });
  });
  return reopened;
}

async function seed(store: FileStore, n: number): Promise<string[]> {
  const refs = Array.from({ length: n }, (_, i) => `R${i}`);
  for (const [i, refId] of refs.entries()) await store.createTx({ refId, chatId: i, kind: "prepaid", status: "pending", amount: 1 });
  await settle(store);
  return refs;
}

/** Everything written and the flusher's pass ended: a change made now waits for a flush or the timer. */
async function settle(store: FileStore): Promise<void> {
  await store.flush();
  while (store.stats().flushing) await new Promise((resolve) => setImmediate(resolve));
}

/** The tx shards' text as on disk now. */
async function shardsText(store: FileStore): Promise<string> {
  const names = (await readdir(store.path)).filter((n) => /^tx-\d+\.json$/.test(n));
  return (await Promise.all(names.map((n) => readFile(join(store.path, n), "utf8")))).join("");
}

it("many concurrent flushTx calls share one append and fsync, and wait for no shard write", async () => {
  const clock = new ManualClock(); // no timer runs: only what flushTx itself writes reaches the disk
  const store = await openStore(await tempDir(), { clock, txShards: 16 });
  const refs = await seed(store, 200);
  const syncs = await countSyncs(store.path);
  const { writes, journalAppends } = store.stats();
  for (const refId of refs) await store.updateTx(refId, { watch: { nextCheckAt: 1, attempts: 1 } });
  await Promise.all(refs.map((refId) => store.flushTx(refId)));
  expect(store.stats().journalAppends - journalAppends).toBe(1);
  expect(syncs()).toBe(1);
  expect(store.stats().writes - writes).toBe(0); // the 16 shards are written later, in the background
  // A second round while nothing changed: already saved, nothing appended.
  await Promise.all(refs.map((refId) => store.flushTx(refId)));
  expect(store.stats().journalAppends - journalAppends).toBe(1);
});

it("a flushTx arriving while an append is in flight joins the next one: two appends for three waves", async () => {
  const store = await openStore(await tempDir(), { txShards: 4 });
  const refs = await seed(store, 30);
  const { journalAppends } = store.stats();
  const waves: Promise<void>[] = [];
  for (const wave of [refs.slice(0, 10), refs.slice(10, 20), refs.slice(20)]) {
    for (const refId of wave) await store.updateTx(refId, { watch: { nextCheckAt: 2, attempts: 1 } });
    waves.push(...wave.map((refId) => store.flushTx(refId)));
  }
  await Promise.all(waves);
  // The first wave's append started at once; the two later waves waited for it together.
  expect(store.stats().journalAppends - journalAppends).toBeLessThanOrEqual(2);
});

it("a crash after flushTx resolved keeps the record: the journal is replayed over the stale shard", async () => {
  const store = await openStore(await tempDir(), { txShards: 2 });
  await seed(store, 5);
  await store.transitionTx("R3", ["pending"], { watch: { nextCheckAt: 0, attempts: 1, announcing: "success" } as never });
  await store.flushTx("R3");
  expect(await shardsText(store)).not.toContain("announcing"); // only the journal has it
  const crashed = await crashCopy(store);
  expect((await crashed.getTx("R3"))!.watch).toMatchObject({ announcing: "success" });
  expect((await crashed.getTx("R2"))!.status).toBe("pending");
  // Open wrote the replayed record into its shard and removed the journal.
  expect(await readdir(crashed.path)).not.toContain("tx.jsonl");
  expect(await shardsText(crashed)).toContain("announcing");
});

it("a journal line older than its shard is not replayed: the newer shard wins after a crash", async () => {
  const store = await openStore(await tempDir(), { txShards: 1 });
  await seed(store, 3);
  await store.updateTx("R1", { status: "processing" });
  await store.flushTx("R1"); // journal: R1 processing
  await store.updateTx("R1", { status: "success" });
  await store.flush(); // the shard: R1 success, written after the line
  expect((await readFile(join(store.path, "tx.jsonl"), "utf8")).split("\n")).toHaveLength(2); // still there
  const crashed = await crashCopy(store);
  expect((await crashed.getTx("R1"))!.status).toBe("success");
});

it("a journal line newer than its shard wins, several versions of a record replay in order", async () => {
  const store = await openStore(await tempDir(), { txShards: 1 });
  await seed(store, 3);
  await store.updateTx("R0", { status: "processing" });
  await settle(store); // the shard: R0 processing
  await store.updateTx("R0", { upstreamId: "U0" });
  await store.flushTx("R0");
  await store.updateTx("R0", { status: "success" });
  await store.flushTx("R0");
  expect(await shardsText(store)).not.toContain("U0");
  const crashed = await crashCopy(store);
  expect(await crashed.getTx("R0")).toMatchObject({ status: "success", upstreamId: "U0" });
  expect((await crashed.findHotTx(0, "U0"))?.refId).toBe("R0"); // the indexes follow the replayed record
  expect((await crashed.openTxs()).map((t) => t.refId).sort()).toEqual(["R1", "R2"]);
});

it("a journal with a torn last line opens cleanly: the whole lines are replayed, a warning names it", async () => {
  const store = await openStore(await tempDir(), { txShards: 2 });
  await seed(store, 3);
  await store.updateTx("R2", { status: "failed" });
  await store.flushTx("R2");
  expect(await shardsText(store)).not.toContain("failed");
  await appendFile(join(store.path, "tx.jsonl"), '{"seq":99,"tx":{"refId":"R0","sta');
  const warnings: string[] = [];
  const crashed = await crashCopy(store, warnings);
  expect((await crashed.getTx("R2"))!.status).toBe("failed");
  expect((await crashed.getTx("R0"))!.status).toBe("pending");
  expect(warnings).toEqual([expect.stringContaining("torn last line")]);
  // Numbering goes on above everything seen: a line made now is newer than every shard.
  await crashed.updateTx("R0", { status: "success" });
  await crashed.flushTx("R0");
  expect(await shardsText(crashed)).not.toContain("success");
  const again = await crashCopy(crashed);
  expect((await again.getTx("R0"))!.status).toBe("success");
});

it("the journal does not grow: once the shards caught up the next append starts it afresh; close removes it", async () => {
  const store = await openStore(await tempDir(), { txShards: 2 });
  await seed(store, 4);
  for (let round = 0; round < 20; round++) {
    await store.updateTx(`R${round % 4}`, { watch: { nextCheckAt: round, attempts: round } });
    await store.flushTx(`R${round % 4}`);
    await store.flush();
  }
  const lines = (await readFile(join(store.path, "tx.jsonl"), "utf8")).trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  await store.close();
  await expect(stat(join(store.path, "tx.jsonl"))).rejects.toThrow(/ENOENT/);
});

it("a failed append falls back to the record's shard write; when that fails too, flushTx rejects and canPersist says so", async () => {
  const store = await openStore(await tempDir(), { txShards: 2 });
  await seed(store, 2);
  const write = LogFile.prototype.write;
  LogFile.prototype.write = () => Promise.reject(Object.assign(new Error("EIO: i/o error"), { code: "EIO" }));
  try {
    await store.updateTx("R0", { status: "processing" });
    await store.flushTx("R0");
    expect(await shardsText(store)).toContain("processing"); // saved by the shard instead
    const storeWrite = StoreFile.prototype.write;
    StoreFile.prototype.write = () => Promise.reject(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }));
    try {
      await store.updateTx("R1", { status: "processing" });
      await expect(store.flushTx("R1")).rejects.toThrow(/ENOSPC/);
      expect(store.canPersist()).toBe(false);
    } finally {
      StoreFile.prototype.write = storeWrite;
    }
  } finally {
    LogFile.prototype.write = write;
  }
  await store.flushTx("R1"); // the journal takes it again
  const crashed = await crashCopy(store);
  expect((await crashed.getTx("R1"))!.status).toBe("processing");
  await store.flush(); // the shard's next good write clears the failure
  expect(store.canPersist()).toBe(true);
});

it("after a clean close and reopen, new lines are numbered above the shards': a crash then keeps them", async () => {
  const dir = await tempDir();
  const first = await openStore(dir, { txShards: 1 });
  await seed(first, 3);
  for (let i = 0; i < 5; i++) {
    await first.updateTx("R1", { watch: { nextCheckAt: i, attempts: i } });
    await first.flushTx("R1");
  }
  await first.close();
  const store = await openStore(dir, { txShards: 1 });
  await store.updateTx("R2", { status: "success" });
  await store.flushTx("R2");
  expect(await shardsText(store)).not.toContain("success");
  const crashed = await crashCopy(store);
  expect((await crashed.getTx("R2"))!.status).toBe("success");
});

/** Counts fsyncs made through a FileHandle (as LogFile makes them) from now until the test ends. */
async function countSyncs(dir: string): Promise<() => number> {
  const fh = await open(join(dir, "probe"), "a");
  const proto = Object.getPrototypeOf(fh) as { sync: () => Promise<void> };
  await fh.close();
  const spy = vi.spyOn(proto, "sync");
  onTestFinished(() => spy.mockRestore());
  return () => spy.mock.calls.length;
}

it("a long journal is rotated: after a crash both files are replayed in order; the old one goes once its shards are written", async () => {
  const store = await openStore(await tempDir(), { txShards: 4 });
  const refs = await seed(store, 200);
  const note = "x".repeat(400); // ~0.6 KB a line: 12 rounds of 200 pass the 1 MiB rotation
  for (let round = 1; round <= 12; round++) {
    for (const refId of refs) await store.updateTx(refId, { title: note, watch: { nextCheckAt: round, attempts: round } });
    await Promise.all(refs.map((refId) => store.flushTx(refId)));
  }
  const names = await readdir(store.path);
  expect(names).toEqual(expect.arrayContaining(["tx.jsonl", "tx.old.jsonl"]));
  expect(await shardsText(store)).not.toContain(note);
  const crashed = await crashCopy(store);
  for (const refId of refs) expect((await crashed.getTx(refId))!.watch).toMatchObject({ attempts: 12 });
  // The shards catch up; the next append removes the old file.
  await settle(store);
  await store.updateTx("R0", { status: "success" });
  await store.flushTx("R0");
  expect(await readdir(store.path)).not.toContain("tx.old.jsonl");
});
