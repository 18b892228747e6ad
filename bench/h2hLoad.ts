/**
 * The H2H benchmark's caller, in a worker thread of its own, so the calls it makes and the servers it
 * measures do not share one event loop (on one loop the client's cost caps every rate alike and the
 * ratio says little). undici's Pool with one connection per call in flight, keep-alive, as a
 * downline's system would hold them.
 */
import { parentPort } from "node:worker_threads";
import { Pool } from "undici";

export type CallKind = "status" | "create";

export interface LoadJob {
  origin: string;
  path: string;
  kind: CallKind;
  keys: string[];
  /** closed: `inFlight` slots each send the next call when the last is answered; paced: `rate` a second for `seconds`. */
  mode: "closed" | "paced";
  calls: number;
  inFlight: number;
  rate: number;
  /** A prefix making the create calls' reff_ids new in each job. */
  tag: string;
}

export interface LoadResult {
  latencies: number[];
  errors: number;
  seconds: number;
}

function body(job: LoadJob, i: number): string {
  const key = job.keys[i % job.keys.length]!;
  if (job.kind === "status") return `api_key=${key}&id=SEED${i % job.keys.length}&type=prabayar`;
  return `api_key=${key}&code=S10&reff_id=${job.tag}${i}&target=0813${String(10_000_000 + i)}`;
}

async function call(pool: Pool, job: LoadJob, i: number): Promise<boolean> {
  try {
    const res = await pool.request({ method: "POST", path: job.path, headers: { "content-type": "application/x-www-form-urlencoded" }, body: body(job, i) });
    await res.body.text();
    return res.statusCode === 200 || res.statusCode === 202;
  } catch {
    return false;
  }
}

async function closed(pool: Pool, job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: job.inFlight }, async () => {
    while (next < job.calls) {
      const i = next++;
      const s = performance.now();
      if (!(await call(pool, job, i))) errors++;
      latencies.push(performance.now() - s);
    }
  }));
  return { latencies, errors, seconds: (performance.now() - t0) / 1000 };
}

async function paced(pool: Pool, job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const running: Promise<void>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < job.calls; i++) {
    const due = t0 + (i * 1000) / job.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push((async () => {
      // Latency from when the call was due: a late send counts against the server.
      if (!(await call(pool, job, i))) errors++;
      latencies.push(performance.now() - due);
    })());
  }
  await Promise.all(running);
  return { latencies, errors, seconds: (performance.now() - t0) / 1000 };
}

parentPort?.on("message", (job: LoadJob) => {
  void (async () => {
    const pool = new Pool(job.origin, { connections: job.mode === "closed" ? job.inFlight : 256, pipelining: 1 });
    try {
      parentPort!.postMessage(job.mode === "closed" ? await closed(pool, job) : await paced(pool, job));
    } finally {
      await pool.close();
    }
  })();
});
