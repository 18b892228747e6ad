/**
 * The startup message every connection of ours sends, padded past 1 KB. postgres.js (3.4.9) defers a
 * write under 1 KB to a timer; a connection that closes with such a write pending keeps a stale timer and
 * the unsent bytes, so its next startup message waits behind them for good and every query on it hangs
 * until connect_timeout (upstream: teardown clears nextWriteTimer without nulling it). A write of 1 KB or
 * more is sent at once with what is pending: the server refuses those bytes, the driver reconnects
 * clean, and the query goes through within milliseconds. The padding is spaces after the name (the
 * server keeps 63 characters of application_name; poolers accept the parameter, unlike a custom one).
 */
const FLUSHED_AT_BYTES = 1024;

export function startupParams(applicationName: string): { application_name: string } {
  return { application_name: applicationName.padEnd(FLUSHED_AT_BYTES) };
}
