/**
 * SVG to PNG on a worker thread: resvg's async render still encodes the PNG (`asPng`) on the calling
 * thread, ~20 ms of the event loop per receipt, and a burst of done shop orders would queue their money
 * steps behind it. Here render and encode both run in one worker, the same resvg with the same options
 * as render/png.ts, so the bytes are the same.
 *
 * One worker (two on a machine with more than two cores), each rendering one image at a time; further
 * images wait in order. The worker's source is inline (`eval`) and loads resvg from the path resolved
 * here, so it works the same under tsx, vitest and the esbuild bundle (resvg stays an external package).
 * An idle worker does not hold the process open; one that dies fails the image it held with
 * PngWorkerGoneError, and the next image starts a new one.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ResvgRenderOptions } from "@resvg/resvg-js";
import { imageRenderOptions } from "./png.js";

const require = createRequire(import.meta.url);

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { Resvg } = require(workerData.resvg);
parentPort.on("message", ({ id, svg, options }) => {
  try {
    parentPort.postMessage({ id, png: new Resvg(svg, options).render().asPng() });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
`;

interface Job {
  id: number;
  svg: string;
  options: ResvgRenderOptions;
  resolve: (png: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
}

/** The worker died or could not start: the image was not made, through no fault of its own. */
export class PngWorkerGoneError extends Error {}

const waiting: Job[] = [];
const slots: Slot[] = [];
let nextId = 1;

function poolSize(): number {
  return availableParallelism() > 2 ? 2 : 1;
}

/** `svg` to a PNG `width` pixels wide, rendered and encoded on a worker thread. */
export function svgToPngOnWorker(svg: string, width: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    waiting.push({ id: nextId++, svg, options: imageRenderOptions(width), resolve, reject });
    dispatch();
  });
}

/** Workers alive now (for tests: an idle pool keeps its worker, a dead one is replaced). */
export function pngWorkerCount(): number {
  return slots.length;
}

function dispatch(): void {
  for (;;) {
    const job = waiting[0];
    if (!job) return;
    let slot = slots.find((s) => !s.job);
    if (!slot && slots.length < poolSize()) slot = spawn();
    if (!slot) return;
    waiting.shift();
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, svg: job.svg, options: job.options });
  }
}

function spawn(): Slot {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { resvg: require.resolve("@resvg/resvg-js") } });
  const slot: Slot = { worker, job: undefined };
  slots.push(slot);
  worker.on("message", (msg: { id: number; png?: Uint8Array; error?: string }) => {
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    slot.job = undefined;
    worker.unref();
    if (msg.png) job.resolve(Buffer.from(msg.png.buffer, msg.png.byteOffset, msg.png.byteLength));
    else job.reject(new Error(`PNG render failed: ${msg.error ?? "no image"}`));
    dispatch();
  });
  const fail = (err: PngWorkerGoneError) => {
    const at = slots.indexOf(slot);
    if (at < 0) return;
    slots.splice(at, 1);
    const job = slot.job;
    slot.job = undefined;
    job?.reject(err);
    dispatch();
  };
  worker.on("error", (err) => fail(new PngWorkerGoneError(`PNG worker failed: ${err.message}`)));
  worker.on("exit", (code) => fail(new PngWorkerGoneError(`PNG worker exited (code ${code})`)));
  worker.unref();
  return slot;
}
