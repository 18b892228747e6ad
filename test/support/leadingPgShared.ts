/**
 * What a world on PostgreSQL shares: production's PgShared on the world's database (hints over
 * LISTEN/NOTIFY, update claims, rate counters, the webhook secret and the lead's advisory lock), taken
 * to lead when it opens rather than at start(). Most tests never start() the app, and a process that
 * does not lead hands its background work (alerts after a purchase, the watcher's hints, a broadcast)
 * to another process, which a one-process world does not have. The lock is PgShared's own: start()
 * finds it held and runs its work at once; a lead lost (the database went away) and taken back later
 * runs start()'s callbacks as it would in production.
 */
import { PgShared } from "../../src/cluster/pgShared.js";
import type { LeadLost, Leadership, Shared } from "../../src/cluster/shared.js";
import type { Logger } from "../../src/logging/logger.js";
import type { Clock } from "../../src/tools/clock.js";

/**
 * The leader's periodic check of its lock runs on the clock, and so does its time limit: a test moves
 * the ManualClock minutes at once while the check's query takes real time, and every jump would look
 * like a hung check and drop the lead. Here it never comes due; a closed lock connection (breakStore)
 * still loses the lead, and PgShared takes it back on the clock.
 */
const NO_LEAD_CHECK_MS = 10 * 365 * 24 * 60 * 60_000;

export async function openLeadingPgShared(url: string, clock: Clock, logger: Logger): Promise<Shared> {
  const shared = await PgShared.open(url, { clock, logger, checkMs: NO_LEAD_CHECK_MS });
  const lock = shared.leadership();
  let onLead = async (): Promise<void> => {};
  let onLose = async (_how?: LeadLost): Promise<void> => {};
  let taken!: () => void;
  const held = new Promise<void>((resolve) => (taken = resolve));
  lock.run(
    () => (taken(), onLead()),
    (how) => onLose(how),
  );
  // The world's database is its own: the lock is free, and taken on the first try (a real query).
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the world's PgShared did not take the lead")), 10_000);
  });
  try {
    await Promise.race([held, late]);
  } catch (err) {
    await shared.close();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  const leadership: Leadership = {
    run(lead, lose) {
      onLead = lead;
      onLose = lose;
      if (lock.isLeader()) void lead();
    },
    isLeader: () => lock.isLeader(),
    stop: () => lock.stop(),
  };
  return {
    leadership: () => leadership,
    fence: () => shared.fence(),
    notify: (kind, id) => shared.notify(kind, id),
    on: (kind, fn) => shared.on(kind, fn),
    claimUpdate: (updateId) => shared.claimUpdate(updateId),
    hit: (key, windowMs) => shared.hit(key, windowMs),
    webhookSecret: () => shared.webhookSecret(),
    close: () => shared.close(),
  };
}
