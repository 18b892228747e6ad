/**
 * Start-up as a user meets it. (a) A newcomer's first `npm start` after `npm ci` on a fresh clone, until
 * it prints the playground's URL: each run clones this repository (its committed HEAD) into a temporary
 * folder and links the checkout's node_modules there (standing for `npm ci`, which is not timed: it is the
 * registry's speed, not the bot's), then times `npm start` (build and start). (b) A restart, built
 * already, as the image and the systemd unit run it (`node --enable-source-maps dist/main.js`), until the
 * bot answers an update waiting for it, with a fresh DATA_DIR and with 1,000 linked chats. Its provider is
 * the sandbox in its own process, started once before the runs (a real provider is another server).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser } from "../test/support/chat.js";
import { FileStore } from "../src/store/file/fileStore.js";
import { FULL, mb, report, summarize } from "./lib.js";

const ROOT = join(import.meta.dirname, "..");
const CLONES = FULL ? 5 : 3;
const RESTARTS = FULL ? 11 : 7;
const SECRET = "bench-secret-0123456789";
const LINKED = 1000;
const MAX_FIRST_START_MS = 15_000;
const MAX_RESTART_MS = 2_000;
const MAX_RSS = 90 * 1024 * 1024;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) * 1024;
}

/** `linked` chats with an api key in the store, written through the Store API before the bot starts. */
async function seed(dir: string, linked: number): Promise<void> {
  if (linked === 0) return;
  const store = await FileStore.open({ dir, secret: SECRET });
  for (let i = 0; i < linked; i++) await store.setApiKey(1_000_000 + i, `bench-key-${String(i).padStart(6, "0")}-abcdefghijklmnop`);
  await store.close();
}

/** `npm run sandbox` as its own process on a free port; resolves with its URL once it listens. */
async function startSandbox(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/sandbox/cli.ts"), "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited (${code}) before listening: ${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** `npm start` in `dir` without BOT_TOKEN (the playground), until it prints the URL: milliseconds. */
async function npmStartToUrl(dir: string): Promise<number> {
  const playground = await mkdtemp(join(tmpdir(), "ppob-bench-playground-"));
  const t0 = performance.now();
  // Its own process group: npm, its shell and node stop together.
  const child = spawn("npm", ["start"], {
    cwd: dir,
    detached: true,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PLAYGROUND_DIR: playground, PLAYGROUND_PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        if (/Playground: open http/.test(out)) resolve(performance.now() - t0);
      });
      child.stderr.on("data", (d) => (out += d));
      child.once("exit", (code) => reject(new Error(`npm start exited (${code}) before printing its URL: ${out}`)));
    });
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
    await rm(playground, { recursive: true, force: true });
  }
}

/** A fresh clone of the committed HEAD with the checkout's dependencies linked in (standing for `npm ci`). */
async function freshClone(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), "ppob-bench-clone-"));
  const dir = join(parent, "bot");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", ROOT, dir]);
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return { dir, remove: () => rm(parent, { recursive: true, force: true }) };
}

/** One restart of the built bot with `linked` chats: time to its first answer and idle memory after it. */
async function restart(linked: number): Promise<{ firstAnswerMs: number; idleRss: number }> {
  const fake = new FakeBotApi();
  const server = await fake.startServer();
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-start-"));
  await seed(dir, linked);
  const user = makeUser(null, fake, { languageCode: "id" });
  fake.pushUpdate(user.textUpdate("/start"));
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--enable-source-maps", "dist/main.js"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: server.apiRoot,
      UPSTREAM_BASE_URL: provider.url,
      DATA_DIR: dir,
      STORE_SECRET: SECRET,
      LOG_LEVEL: "silent",
    },
    stdio: "ignore",
  });
  try {
    await fake.waitFor("sendMessage", 30_000);
    const firstAnswerMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 2000));
    const idleRss = await rssOf(child.pid!);
    return { firstAnswerMs, idleRss };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// (a) First and second `npm start` in fresh clones.
const firstStarts: number[] = [];
const secondStarts: number[] = [];
for (let i = 0; i < CLONES; i++) {
  const clone = await freshClone();
  try {
    firstStarts.push(await npmStartToUrl(clone.dir));
    secondStarts.push(await npmStartToUrl(clone.dir));
  } finally {
    await clone.remove();
  }
}

// (b) Restarts of this checkout's build.
execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
const provider = await startSandbox();
const runs: Record<"fresh" | "linked", Awaited<ReturnType<typeof restart>>[]> = { fresh: [], linked: [] };
for (let i = 0; i < RESTARTS; i++) {
  runs.fresh.push(await restart(0));
  runs.linked.push(await restart(LINKED));
}
await provider.stop();

const p50 = (xs: number[]) => summarize(xs).p50;
const seconds = (v: number) => `${(v / 1000).toFixed(1)} s`;
const spread = (xs: number[], unit: (v: number) => string) => `${unit(p50(xs))} (${unit(Math.min(...xs))}–${unit(Math.max(...xs))})`;
const msOf = (v: number) => `${Math.round(v)} ms`;
const firstAnswer = (label: string, rs: { firstAnswerMs: number }[]) => {
  const xs = rs.map((r) => r.firstAnswerMs);
  return { metric: `restart (built) -> first answered update, ${label}`, value: spread(xs, msOf), target: `≤ ${seconds(MAX_RESTART_MS)}`, ok: p50(xs) <= MAX_RESTART_MS };
};
const linkedRss = p50(runs.linked.map((r) => r.idleRss));
report({
  name: "Start-up",
  setup: `(a) ${CLONES} fresh clones: \`git clone\` of this repository's committed HEAD into a temporary folder, the checkout's node_modules linked in for \`npm ci\` (not timed), then \`npm start\` (esbuild build, then node --enable-source-maps dist/main.js) without BOT_TOKEN until it prints the playground's URL, then \`npm start\` once more in the same clone; (b) ${RESTARTS} restarts each of the built bot as the image and the systemd unit run it (node --enable-source-maps dist/main.js), an update waiting on the fake Bot API, the provider being the sandbox in its own process, already running; a fresh DATA_DIR, and one with ${LINKED.toLocaleString("en")} linked chats. Medians (lowest–highest)`,
  rows: [
    { metric: "first `npm start` after `npm ci` on a fresh clone -> playground URL", value: spread(firstStarts, seconds), target: `≤ ${seconds(MAX_FIRST_START_MS)}`, ok: p50(firstStarts) <= MAX_FIRST_START_MS },
    { metric: "second `npm start` (builds again) -> playground URL", value: spread(secondStarts, seconds) },
    firstAnswer("fresh DATA_DIR", runs.fresh),
    firstAnswer(`${LINKED.toLocaleString("en")} linked chats`, runs.linked),
    { metric: "idle resident memory, fresh DATA_DIR", value: mb(p50(runs.fresh.map((r) => r.idleRss))) },
    { metric: `idle resident memory, ${LINKED.toLocaleString("en")} linked chats`, value: mb(linkedRss), target: `≤ ${mb(MAX_RSS)}`, ok: linkedRss <= MAX_RSS },
  ],
});
