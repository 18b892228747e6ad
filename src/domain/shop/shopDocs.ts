/**
 * The store's documents API as the shop uses it (store/api.ts: createDoc, getDoc, updateDoc,
 * listDocs), declared here in the same shape until it is exported from store/index.ts.
 */
import type * as z from "../../tools/zod.js";

export type ZodType<T> = z.core.$ZodType<T>;

export interface DocKind<T> {
  readonly name: string;
  readonly schema: ZodType<T>;
}

export interface Doc<T> {
  readonly kind: string;
  readonly id: string;
  readonly owner: number;
  readonly state: string;
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly value: Readonly<T>;
}

export interface DocStore {
  createDoc<T>(kind: DocKind<T>, input: { id: string; owner: number; state: string; value: T }): Promise<Doc<T>>;
  getDoc<T>(kind: DocKind<T>, id: string): Promise<Doc<T> | undefined>;
  updateDoc<T>(
    kind: DocKind<T>,
    id: string,
    expect: { version?: number; states?: readonly string[] },
    change: { state?: string; value?: T },
  ): Promise<Doc<T> | undefined>;
  listDocs<T>(kind: DocKind<T>, query: { owner?: number; states?: readonly string[]; createdSince?: number; limit?: number }): Promise<Doc<T>[]>;
}

/** Until the store keeps documents: the same rules in memory (lost at a restart). */
export class MemoryDocs implements DocStore {
  private readonly docs = new Map<string, Doc<unknown>>();
  constructor(private readonly now: () => number) {}

  createDoc<T>(kind: DocKind<T>, input: { id: string; owner: number; state: string; value: T }): Promise<Doc<T>> {
    const key = `${kind.name}:${input.id}`;
    if (this.docs.has(key)) return Promise.reject(new Error(`duplicate ${key}`));
    const at = this.now();
    const doc: Doc<T> = Object.freeze({ kind: kind.name, ...input, version: 1, createdAt: at, updatedAt: at, value: structuredClone(input.value) });
    this.docs.set(key, doc);
    return Promise.resolve(doc);
  }

  getDoc<T>(kind: DocKind<T>, id: string): Promise<Doc<T> | undefined> {
    return Promise.resolve(this.docs.get(`${kind.name}:${id}`) as Doc<T> | undefined);
  }

  updateDoc<T>(kind: DocKind<T>, id: string, expect: { version?: number; states?: readonly string[] }, change: { state?: string; value?: T }): Promise<Doc<T> | undefined> {
    const key = `${kind.name}:${id}`;
    const doc = this.docs.get(key) as Doc<T> | undefined;
    if (!doc || (expect.version !== undefined && doc.version !== expect.version) || (expect.states && !expect.states.includes(doc.state))) return Promise.resolve(undefined);
    const next: Doc<T> = Object.freeze({ ...doc, state: change.state ?? doc.state, value: change.value === undefined ? doc.value : structuredClone(change.value), version: doc.version + 1, updatedAt: this.now() });
    this.docs.set(key, next);
    return Promise.resolve(next);
  }

  listDocs<T>(kind: DocKind<T>, query: { owner?: number; states?: readonly string[]; createdSince?: number; limit?: number }): Promise<Doc<T>[]> {
    const out = [...this.docs.values()].filter(
      (d) => d.kind === kind.name && (query.owner === undefined || d.owner === query.owner) && (!query.states || query.states.includes(d.state)) && (query.createdSince === undefined || d.createdAt >= query.createdSince),
    ) as Doc<T>[];
    return Promise.resolve(out.slice(0, query.limit ?? out.length));
  }
}
