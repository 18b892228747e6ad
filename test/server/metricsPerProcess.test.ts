/**
 * Node's own metrics (CPU, memory, event loop lag, GC) belong to the process. Collecting them starts an
 * event-loop-delay monitor (a timer every 10 ms) and a GC observer that prom-client never stops, so an app
 * built again in the same process (a test world, each restart) must not start another. Every app's
 * /metrics still shows them.
 */
import perfHooks from "node:perf_hooks";
import { afterEach, expect, it, vi } from "vitest";
import { AppMetrics } from "../../src/server/metrics.js";

afterEach(() => vi.restoreAllMocks());

const sources = { pendingIds: () => 0, broadcast: async () => undefined };

it("five apps in one process start no event-loop monitor after the first, and each one's /metrics shows the process's figures", async () => {
  const monitors = vi.spyOn(perfHooks, "monitorEventLoopDelay");
  const apps = Array.from({ length: 5 }, () => new AppMetrics(sources));
  expect(monitors.mock.calls.length).toBeLessThanOrEqual(1);
  for (const app of apps) {
    const text = await app.text();
    expect(text).toContain("process_cpu_user_seconds_total");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    expect(text).toContain("bot_updates_handled_total");
  }
  apps[0]!.updates.inc();
  expect(await apps[1]!.text()).toMatch(/^bot_updates_handled_total 0$/m); // the app's own figures stay its own
  expect(await apps[0]!.text()).toMatch(/^bot_updates_handled_total 1$/m);
});
