/**
 * What bot processes share besides the records: the lead, hints, update claims, rate counters and
 * the webhook secret. PostgreSQL when STORE_URL names one (two processes can run), else this process alone.
 */
import type { Clock } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import { isPostgresUrl } from "../store/index.js";
import type { Shared } from "./shared.js";

export type { HintKind, LeadFence, LeadLost, Leadership, Shared } from "./shared.js";

export async function openShared(opts: { url?: string | undefined; dir: string; clock: Clock; logger: Logger }): Promise<Shared> {
  if (isPostgresUrl(opts.url)) {
    const { PgShared } = await import("./pgShared.js");
    return PgShared.open(opts.url, { clock: opts.clock, logger: opts.logger });
  }
  const { LocalShared } = await import("./localShared.js");
  return new LocalShared(opts.clock, opts.dir);
}
