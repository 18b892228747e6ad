/**
 * PgStore's documents and append-only logs (api.ts createDoc... listLog) in the tables `docs` and
 * `logs` (migration 4). The rules are rules.ts's, as the file store's: values are checked with the
 * kind's schema before they are written and again on every row read (StoreCorruptError).
 * updateDoc is a single conditional UPDATE, so of two racing calls on any processes one wins;
 * appendLog takes max(seq) + 1 of its (kind, owner) and, when another process took the same seq
 * first (the primary key refuses it), takes the next.
 * A row whose stored value an operator damaged still takes a state-only updateDoc (SQL cannot check
 * it against the kind's schema), but that call rejects with StoreCorruptError as every read of it does.
 */
import postgres, { type Sql } from "postgres";
import type { Clock } from "../../tools/clock.js";
import type { Doc, DocChange, DocExpect, DocKind, DocQuery, LogEntry, LogPage, NewDoc } from "../api.js";
import { buildNewDoc, checkExpect, docChange, docLimit, kindName, logPage, storedDoc, storedLogEntry, validLogEntry } from "../rules.js";
import { DuplicateDocError } from "../errors.js";

/** What the documents need of the PgStore they live in. */
export interface PgDocsHost {
  /** Queries (watched for reachability). */
  sql: Sql;
  /** The same pool, unwatched: only to build fragments of a query sent through `sql`. */
  fragments: Sql;
  clock: Clock;
  /** Runs one change (timed; refused once closed). */
  write<T>(table: string, fn: () => Promise<T>): Promise<T>;
}

/** A docs row as selected (DOC_COLUMNS): the stored document's frame, value unchecked. */
interface DocRow {
  id: string;
  owner: number;
  state: string;
  version: number;
  createdAt: number;
  updatedAt: number;
  value: unknown;
}

interface LogRow {
  seq: number;
  owner: number;
  at: number;
  entry: unknown;
}

/** A second process took the same seq first: try the next. Bounded, in case something else is wrong. */
const APPEND_TRIES = 50;
const UNIQUE_VIOLATION = "23505";

export class PgDocs {
  constructor(private readonly host: PgDocsHost) {}

  /** bigint columns come back as numbers (float8: exact for chat ids and epoch ms). */
  private docColumns(): postgres.PendingQuery<postgres.Row[]> {
    return this.host.fragments`id, owner::float8 AS owner, state, version::float8 AS version,
      created_at::float8 AS "createdAt", updated_at::float8 AS "updatedAt", data AS value`;
  }

  async createDoc<T>(kind: DocKind<T>, input: NewDoc<T>): Promise<Doc<T>> {
    const doc = buildNewDoc(kind, input, this.host.clock.now());
    const done = await this.host.write(
      "docs",
      () => this.host.sql`
        INSERT INTO docs (kind, id, owner, state, version, created_at, updated_at, data)
        VALUES (${doc.kind}, ${doc.id}, ${doc.owner}, ${doc.state}, ${doc.version}, ${doc.createdAt}, ${doc.updatedAt},
          ${JSON.stringify(doc.value)}::text::json)
        ON CONFLICT (kind, id) DO NOTHING`,
    );
    if (done.count === 0) throw new DuplicateDocError(doc.kind, doc.id);
    return doc;
  }

  async getDoc<T>(kind: DocKind<T>, id: string): Promise<Doc<T> | undefined> {
    const name = kindName(kind);
    const [row] = await this.host.sql<DocRow[]>`SELECT ${this.docColumns()} FROM docs WHERE kind = ${name} AND id = ${id}`;
    return row && storedDoc(kind, `table docs, ${name} ${id}`, row);
  }

  async updateDoc<T>(kind: DocKind<T>, id: string, expect: DocExpect, change: DocChange<T>): Promise<Doc<T> | undefined> {
    const name = kindName(kind);
    checkExpect(expect);
    const valid = docChange(kind, id, change);
    if (expect.states?.length === 0) return undefined; // no state matches none
    const f = this.host.fragments;
    const data = valid.value === undefined ? null : JSON.stringify(valid.value);
    const now = this.host.clock.now();
    const [row] = await this.host.write(
      "docs",
      () => this.host.sql<DocRow[]>`
        UPDATE docs SET version = version + 1, updated_at = ${now},
          state = coalesce(${valid.state ?? null}::text, state), data = coalesce(${data}::text::json, data)
        WHERE kind = ${name} AND id = ${id}
          ${expect.version === undefined ? f`` : f`AND version = ${expect.version}`}
          ${expect.states === undefined ? f`` : f`AND state IN ${f([...expect.states])}`}
        RETURNING ${this.docColumns()}`,
    );
    return row && storedDoc(kind, `table docs, ${name} ${id}`, row);
  }

  async listDocs<T>(kind: DocKind<T>, query: DocQuery): Promise<Doc<T>[]> {
    const name = kindName(kind);
    if (query.states?.length === 0) return [];
    const limit = docLimit(query.limit);
    const f = this.host.fragments;
    const rows = await this.host.sql<DocRow[]>`
      SELECT ${this.docColumns()} FROM docs WHERE kind = ${name}
        ${query.owner === undefined ? f`` : f`AND owner = ${query.owner}`}
        ${query.states === undefined ? f`` : f`AND state IN ${f([...query.states])}`}
        ${query.createdSince === undefined ? f`` : f`AND created_at >= ${query.createdSince}`}
      ORDER BY created_at, id
      ${Number.isFinite(limit) ? f`LIMIT ${limit}` : f``}`;
    return rows.map((row) => storedDoc(kind, `table docs, ${name} ${row.id}`, row));
  }

  async appendLog<T>(kind: DocKind<T>, owner: number, entry: T): Promise<LogEntry<T>> {
    const name = kindName(kind);
    const value = validLogEntry(kind, owner, entry);
    const data = JSON.stringify(value);
    for (let tries = 1; ; tries++) {
      const at = this.host.clock.now();
      try {
        const [row] = await this.host.write(
          "logs",
          () => this.host.sql<{ seq: number }[]>`
            INSERT INTO logs (kind, owner, seq, at, data)
            SELECT ${name}, ${owner}, coalesce(max(seq), 0) + 1, ${at}, ${data}::text::json
            FROM logs WHERE kind = ${name} AND owner = ${owner}
            RETURNING seq::float8 AS seq`,
        );
        return Object.freeze({ seq: row!.seq, owner, at, entry: value });
      } catch (err) {
        if (tries < APPEND_TRIES && err instanceof postgres.PostgresError && err.code === UNIQUE_VIOLATION) continue;
        throw err;
      }
    }
  }

  async listLog<T>(kind: DocKind<T>, owner: number, page?: LogPage): Promise<LogEntry<T>[]> {
    const name = kindName(kind);
    const { beforeSeq, limit } = logPage(page);
    const f = this.host.fragments;
    const rows = await this.host.sql<LogRow[]>`
      SELECT seq::float8 AS seq, owner::float8 AS owner, at::float8 AS at, data AS entry
      FROM logs WHERE kind = ${name} AND owner = ${owner}
        ${beforeSeq === undefined ? f`` : f`AND seq < ${beforeSeq}`}
      ORDER BY seq DESC LIMIT ${limit}`;
    return rows.map((row) => storedLogEntry(kind, `table logs, ${name} ${owner} #${row.seq}`, row));
  }
}
