/**
 * The playground's customer: Sari opened Rina's shop link at the first start, so her chat shows the
 * shop and a search finds its products at Rina's prices; a restart keeps her a customer without
 * opening the link again. Real time, as under `npm start`; each wait is bounded by expect.poll.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { startPlayground, type Playground } from "../../src/playground/index.js";
import type { MessageView } from "../../src/playground/view.js";

const RINA = 1001;
const SARI = 1005;
let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const start = async (dataDir: string): Promise<Playground> => {
  const pg = await startPlayground({ dataDir, port: 0, logger: silentLogger, settleMs: 10 * 60_000, say: () => undefined });
  cleanup.push(() => pg.stop());
  return pg;
};
const chat = async (pg: Playground, user: number) =>
  (await (await fetch(new URL(`api/chat/${user}`, pg.url))).json()) as { messages: MessageView[]; commands: { command: string }[] };
const botMessages = async (pg: Playground, user: number) => (await chat(pg, user)).messages.filter((m) => m.from === "bot");
const seen = (m: MessageView | undefined) => (m?.html ?? "").replace(/<[^>]+>/g, "");

describe("the playground's shop customer", () => {
  it("Sari is a customer of Rina's shop through its link, sees the shop and finds products; a restart keeps it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "playground-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    let pg = await start(dataDir);
    const users = (await (await fetch(new URL("api/users", pg.url))).json()) as { users: { id: number; name: string; role: string }[] };
    expect(users.users.find((u) => u.id === SARI)).toMatchObject({ name: "Sari", role: "customer" });

    await expect.poll(async () => seen((await botMessages(pg, SARI)).at(-1)), { timeout: 10_000 }).toContain("Pilih kategori");
    const code = (await pg.app.deps.shop.get(RINA)).code;
    expect((await pg.app.store.getChat(SARI))?.customerOf).toEqual({ owner: RINA, code });
    // Her chat shows the link she opened, as Telegram shows a started link.
    const first = (await chat(pg, SARI)).messages[0];
    expect([first?.from, seen(first)]).toEqual(["user", `/start ${code}`]);

    // Her Menu lists the shop's commands only; Rina's lists hers.
    expect((await chat(pg, SARI)).commands.map((c) => c.command)).toEqual(["start", "menu", "pesanan", "bahasa", "batal", "bantuan"]);
    expect((await chat(pg, RINA)).commands.map((c) => c.command)).toContain("saldo");

    await fetch(new URL(`api/chat/${SARI}/send`, pg.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "pulsa 10" }) });
    await expect.poll(async () => (await botMessages(pg, SARI)).at(-1)?.keyboard.flat().map((b) => b.text).join(" ") ?? "", { timeout: 10_000 }).toContain("Telkomsel 10.000 · Rp");

    const before = (await botMessages(pg, SARI)).length;
    await pg.stop();
    pg = await start(dataDir);
    expect((await pg.app.deps.shop.get(RINA)).code).toBe(code);
    expect((await pg.app.store.getChat(SARI))?.customerOf).toEqual({ owner: RINA, code });
    expect((await chat(pg, SARI)).messages.filter((m) => seen(m).startsWith("/start")).length).toBe(1);
    expect((await botMessages(pg, SARI)).length).toBe(before);
  });
});
