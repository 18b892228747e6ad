/**
 * A chat's saved customers (/pelanggan), kept on its chat record oldest first: listed, saved from a
 * sale (the same target saved again gets the new name), renamed and deleted.
 */
import { randomBytes } from "node:crypto";
import type { SavedCustomer, Store } from "../store/index.js";

/** Most saved customers per chat: enough for a counter's regulars, small enough for the chat record. */
export const CUSTOMERS_MAX = 200;

/** What a sale gives a new saved customer: its target, of which kind, and the product or bank it came with. */
export type CustomerTarget = Pick<SavedCustomer, "kind" | "target" | "code" | "title" | "source">;

export type SaveResult = { ok: true; customer: SavedCustomer; renamed?: string } | { ok: false; reason: "full" | "not-savable" };

export class SavedCustomers {
  constructor(private readonly store: Store) {}

  /** Oldest first. */
  async list(chatId: number): Promise<readonly SavedCustomer[]> {
    return (await this.store.getChat(chatId))?.customers ?? [];
  }

  /** Saves `target` under `name`, durably; the same target saved before gets the new name instead. */
  async save(chatId: number, target: CustomerTarget, name: string, now: number): Promise<SaveResult> {
    const result = await this.add(chatId, target, name, now);
    await this.store.flush();
    return result;
  }

  private async add(chatId: number, target: CustomerTarget, name: string, now: number): Promise<SaveResult> {
    const list = [...await this.list(chatId)];
    const i = list.findIndex((c) => sameTarget(c, target));
    if (i >= 0) {
      const old = list[i]!;
      list[i] = { ...old, name };
      await this.store.updateChat(chatId, { customers: list });
      return { ok: true, customer: list[i], renamed: old.name };
    }
    if (list.length >= CUSTOMERS_MAX) return { ok: false, reason: "full" };
    const customer: SavedCustomer = { id: newCustomerId(list), name, ...target, createdAt: now };
    await this.store.updateChat(chatId, { customers: [...list, customer] });
    return { ok: true, customer };
  }

  /** The renamed customer, durably; undefined when `id` is not saved (any more). */
  async rename(chatId: number, id: string, name: string): Promise<SavedCustomer | undefined> {
    const list = await this.list(chatId);
    const old = list.find((c) => c.id === id);
    const renamed = old && { ...old, name };
    if (renamed) await this.store.updateChat(chatId, { customers: list.map((c) => (c.id === id ? renamed : c)) });
    await this.store.flush();
    return renamed;
  }

  /** The deleted customer; undefined when `id` was not saved. */
  async remove(chatId: number, id: string): Promise<SavedCustomer | undefined> {
    const list = await this.list(chatId);
    const gone = list.find((c) => c.id === id);
    if (gone) await this.store.updateChat(chatId, { customers: list.filter((c) => c.id !== id) });
    return gone;
  }
}

function sameTarget(c: SavedCustomer, t: CustomerTarget): boolean {
  // An account number means something only with its bank.
  return c.kind === t.kind && c.target === t.target && (t.kind !== "account" || c.code === t.code);
}

function newCustomerId(list: readonly SavedCustomer[]): string {
  const taken = new Set(list.map((c) => c.id));
  for (;;) {
    const id = randomBytes(4).toString("hex").slice(0, 6);
    if (!taken.has(id)) return id;
  }
}
