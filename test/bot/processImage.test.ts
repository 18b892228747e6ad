/**
 * The Dockerfile replayed without Docker (no image can be built here): each stage gets exactly the files
 * its COPY lines name, in a folder standing for its WORKDIR; the build stage runs `npm run build` with the
 * dev dependencies, the run stage `npm ci --omit=dev` (offline, from the npm cache `npm ci` filled) and its
 * CMD with its ENV. Then the bot must answer and be healthy.
 */
import { execFile, spawn } from "node:child_process";
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser } from "../support/chat.js";
import { FakeBotApi } from "../support/fakeBotApi.js";
import { ROOT } from "../support/mainProcess.js";

interface Stage {
  workdir: string;
  env: Record<string, string>;
  copies: { from?: string; sources: string[]; dest: string }[];
  runs: string[];
  cmd: string[];
}

/** The Dockerfile's stages: only what the replay needs (WORKDIR, ENV, COPY, RUN, CMD). */
function stagesOf(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of dockerfile.replace(/\\\n/g, " ").split("\n")) {
    const [op = "", ...rest] = line.trim().split(/\s+/);
    const args = rest.join(" ");
    if (op === "FROM") stages.push({ workdir: "/", env: {}, copies: [], runs: [], cmd: [] });
    const stage = stages.at(-1);
    if (!stage) continue;
    if (op === "WORKDIR") stage.workdir = args;
    if (op === "ENV") for (const m of args.matchAll(/(\w+)=(\S+)/g)) stage.env[m[1]!] = m[2]!;
    if (op === "RUN") stage.runs.push(args);
    if (op === "CMD") stage.cmd = JSON.parse(args) as string[];
    if (op === "COPY") {
      const words = args.split(" ");
      const from = words[0]!.startsWith("--from=") ? words.shift()!.slice("--from=".length) : undefined;
      stage.copies.push({ from, sources: words.slice(0, -1), dest: words.at(-1)! });
    }
  }
  return stages;
}

/** Replays a stage's COPY lines into `dir` (its WORKDIR); `--from=` paths are read below `built`. */
async function copyInto(stage: Stage, dir: string, built: string): Promise<void> {
  for (const c of stage.copies) {
    for (const source of c.sources) {
      const from = c.from ? join(built, source.slice(stage.workdir.length)) : join(ROOT, source);
      const to = c.dest.endsWith("/") ? join(dir, c.dest, source.split("/").at(-1)!) : join(dir, c.dest);
      await cp(from, to, { recursive: true, preserveTimestamps: true });
    }
  }
}

const run = promisify(execFile);
let tmp = "";
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("the Docker image, replayed stage by stage", () => {
  it("builds from the files its build stage copies, without a type-check, runs with production dependencies only, answers and is healthy", async () => {
    const [build, final] = stagesOf(await readFile(join(ROOT, "Dockerfile"), "utf8"));
    expect(build!.runs).toEqual(["npm ci", "npm run build"]);
    expect(final!.runs[0]).toMatch(/^npm ci --omit=dev/);
    // It runs the bundle as `npm start` does after its build (whose shell `exec`s node so a SIGTERM reaches it).
    const start = (JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
    expect(start.split(" && ").at(-1)).toBe(`exec ${final!.cmd.join(" ")}`);

    tmp = await mkdtemp(join(tmpdir(), "ppob-image-"));
    const app = join(tmp, "app");
    await mkdir(app);
    await copyInto(build!, app, "");
    await symlink(join(ROOT, "node_modules"), join(app, "node_modules")); // `npm ci` with the dev dependencies
    // A type error does not stop the build (`npm test` and CI check types): the bundle is made all the same.
    await appendFile(join(app, "src/main.ts"), 'export const typeCheckedByNpmTest: number = "elsewhere";\n');
    await run("npm", ["run", "build", "--silent"], { cwd: app });
    await stat(join(app, "dist/main.js"));
    const buildStage = join(tmp, "build");
    await rename(app, buildStage);

    await mkdir(app);
    await copyInto(final!, app, buildStage);
    // All of dist/ is in the image: the chunks main.js imports on demand (the HTTP server, the sandbox...) too.
    const chunks = await readdir(join(buildStage, "dist/chunks"));
    expect(chunks.length).toBeGreaterThan(0);
    expect((await readdir(join(app, "dist/chunks"))).sort()).toEqual(chunks.sort());
    await run("npm", ["ci", "--omit=dev", "--offline", "--no-audit", "--no-fund"], { cwd: app });
    await expect(stat(join(app, "node_modules/esbuild"))).rejects.toThrow(); // no dev dependency to lean on

    const fake = new FakeBotApi();
    const server = await fake.startServer();
    const dataDir = join(tmp, "data");
    const child = spawn(final!.cmd[0] === "node" ? process.execPath : final!.cmd[0]!, final!.cmd.slice(1), {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? "",
        ...final!.env,
        DATA_DIR: dataDir,
        HTTP_PORT: "0",
        HTTP_HOST: "127.0.0.1",
        BOT_TOKEN: FAKE_BOT_TOKEN,
        TELEGRAM_API_ROOT: server.apiRoot,
        UPSTREAM_BASE_URL: "sandbox",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      expect(final!.env.NODE_ENV).toBe("production");
      await makeUser(null, fake, { languageCode: "id", firstName: "Sari" }).sendCommand("start");
      await fake.waitFor((c) => c.method === "sendMessage" && String(c.payload.text).includes("Sari"), 30_000);
      const listening = out.split("\n").find((l) => l.includes("HTTP server listening"));
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)/.exec(listening ?? "")?.[1];
      expect(url, out).toBeDefined();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await server.close();
    }
  }, 180_000);
});
