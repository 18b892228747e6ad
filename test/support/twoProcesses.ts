/**
 * Two app processes behind a load balancer: one PostgreSQL database (fresh), one provider (A's
 * sandbox), each process its own copy of every module (as a second process has: vi.resetModules
 * between the two builds) and its own PgShared. Telegram's update ids are unique across both.
 */
import { vi } from "vitest";
import type { ManualClock } from "../../src/tools/clock.js";
import type { TxRecord } from "../../src/store/index.js";
import { freshDatabase } from "./pg.js";
import type { World, WorldOptions } from "./world.js";

/** A and B, each pushed on `worlds` as soon as it is made (the caller closes them); `a` tunes A (e.g. its watcher). */
export async function twoProcesses(worlds: World[], a: Pick<WorldOptions, "watcher"> = {}): Promise<[World, World]> {
  const url = await freshDatabase();
  const modA = await import("./world.js");
  const { PgShared: PgSharedA } = await import("../../src/cluster/pgShared.js");
  const { silentLogger } = await import("../../src/logging/logger.js");
  const first = await modA.makeWorld({ ...a, shared: (c: ManualClock) => PgSharedA.open(url, { clock: c, logger: silentLogger }), env: { STORE_URL: url } });
  worlds.push(first);
  vi.resetModules();
  const modB = await import("./world.js");
  const { PgShared: PgSharedB } = await import("../../src/cluster/pgShared.js");
  const second = await modB.makeWorld({ shared: (c: ManualClock) => PgSharedB.open(url, { clock: c, logger: silentLogger }), env: { STORE_URL: url, UPSTREAM_BASE_URL: first.sandbox.url } });
  worlds.push(second);
  for (let i = 0; i < 10_000; i++) second.fake.nextUpdateId();
  return [first, second];
}

/** Both processes read `refId` before either writes its mark (`unmarked`: not yet written): a barrier makes the interleaving certain. */
export function bothReadFirst(processes: World[], refId: string, unmarked: (rec: TxRecord) => boolean): void {
  let arrived = 0;
  let open!: () => void;
  const barrier = new Promise<void>((r) => (open = r));
  for (const st of processes.map((x) => x.store)) {
    const orig = st.getTx.bind(st);
    (st as { getTx: unknown }).getTx = async (ref: string) => {
      const rec = await orig(ref);
      if (ref === refId && rec && unmarked(rec) && arrived < 2) {
        if (++arrived === 2) open();
        await barrier;
      }
      return rec;
    };
  }
}
