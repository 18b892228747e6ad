import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { openStore, tempDir } from "./helpers.js";

async function modes(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = { ".": (await stat(dir)).mode & 0o777 };
  for (const name of await readdir(dir)) out[name] = (await stat(join(dir, name))).mode & 0o777;
  return out;
}

it("store files and folder are readable by their owner only (0600 / 0700), also after a rewrite", async () => {
  const dir = await tempDir();
  const store = await openStore(dir);
  await store.setApiKey(1, "KEY-ONE-0123456789");
  await store.createTx({ refId: "R-MODE-1", chatId: 1, kind: "prepaid", status: "pending", amount: 10_000 } as never);
  await store.flush();
  await store.updateChat(1, { lang: "en" });
  await store.flush();
  const seen = await modes(join(dir, "store"));
  expect(Object.keys(seen).length).toBeGreaterThan(2);
  for (const [name, mode] of Object.entries(seen)) expect([name, mode.toString(8)]).toEqual([name, name === "." ? "700" : "600"]);
});

it("an existing store made with looser modes is tightened at open", async () => {
  const dir = await tempDir();
  const first = await openStore(dir);
  await first.updateChat(1, { lang: "id" });
  await first.close();
  const root = join(dir, "store");
  await chmod(root, 0o755);
  for (const name of await readdir(root)) await chmod(join(root, name), 0o644);

  await openStore(dir);
  const seen = await modes(root);
  expect(seen["."]!.toString(8)).toBe("700");
  for (const name of (await readdir(root)).filter((n) => n.endsWith(".json"))) expect([name, seen[name]!.toString(8)]).toEqual([name, "600"]);
});

it("a temp file a crash left with a looser mode is replaced: the written file is still owner-only", async () => {
  const dir = await tempDir();
  const store = await openStore(dir, { chatShards: 1 });
  const tmp = join(dir, "store", ".chats-00.json.tmp");
  await writeFile(tmp, "{half", { mode: 0o644 });
  await chmod(tmp, 0o644);
  await store.updateChat(1, { lang: "en" });
  await store.flush();
  expect(((await stat(join(dir, "store", "chats-00.json"))).mode & 0o777).toString(8)).toBe("600");
  expect(JSON.parse(await readFile(join(dir, "store", "chats-00.json"), "utf8"))).toMatchObject({ chats: [{ chatId: 1 }] });
});
