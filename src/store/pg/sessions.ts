/**
 * Ending a pool's sessions at a stop. postgres.js's graceful end() waits for each backend to exit after
 * its Terminate, ~10 ms each and one after another on a small server: 100 ms for a full pool of 10, at
 * every stop (the test suite's PostgreSQL worlds stop hundreds of times). Here the queries already sent
 * finish first, then every session is sent its Terminate and the backends exit on their own.
 */
import type { Sql } from "postgres";

/** How long a close waits for queries already sent (the driver's own graceful end waited as long). */
export const CLOSE_WAIT_MS = 5_000;

/** A query function that counts what it has sent and not yet had answered. */
export function countingQueries(sql: Sql): { sql: Sql; inFlight: () => number } {
  let inFlight = 0;
  const counted = new Proxy(sql, {
    apply: (target, self, args: unknown[]) => {
      inFlight++;
      return (Reflect.apply(target, self, args) as Promise<unknown>).finally(() => inFlight--);
    },
  });
  return { sql: counted, inFlight: () => inFlight };
}

/** Waits (real time, up to CLOSE_WAIT_MS) until `inFlight` is 0, then ends every session of `sql` without waiting for their backends. */
export async function endSessions(sql: Sql, inFlight: () => number): Promise<void> {
  for (const until = Date.now() + CLOSE_WAIT_MS; inFlight() > 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 2));
  await sql.end({ timeout: 0 });
}
