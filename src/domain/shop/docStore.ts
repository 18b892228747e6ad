/**
 * The part of the store's documents API the shop orders use (RECORDS.md), declared here until the
 * store exports it; then these become re-exports of store/index.js.
 */
import type { ZodMiniType } from "zod/mini";

export interface DocKind<T> {
  readonly name: string;
  readonly schema: ZodMiniType<T>;
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
  flush(): Promise<void>;
}
