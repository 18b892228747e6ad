/**
 * The chaos run's schedule: a seed gives the same list of events every time (what resellers do, which
 * fault comes when and for how long, how far the clock moves), drawn before the run starts, so a
 * failing seed can be replayed and its events printed.
 */

/** `order`: the reseller's shop customer orders and gets a QRIS; `payorder`: that customer pays the oldest QR still open (late, or never). */
export type Action = "buy" | "bill" | "transfer" | "deposit" | "saldo" | "riwayat" | "pay" | "order" | "payorder";

export const FAULT_KINDS = [
  "disk-full",
  "read-only",
  "postgres-down",
  "restart",
  "telegram-429",
  "telegram-5xx",
  "telegram-timeout",
  "telegram-403",
  "provider-timeout",
  "provider-5xx",
  "provider-html",
  "provider-malformed",
  "provider-late",
  "callback-lost",
  "callback-late",
  "duplicate-update",
  "reordered-updates",
  "forged-callback",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type ChaosEvent =
  | { at: number; type: "act"; user: number; action: Action }
  | { at: number; type: "fault"; kind: FaultKind; user: number; endpoint: string; lastsMs: number }
  | { at: number; type: "wait"; ms: number };

/** Provider endpoints a fault may hit: every create, and every status read the watcher makes. */
export const PROVIDER_ENDPOINTS = [
  "/transaksi/create",
  "/transaksi/status",
  "/transaksi/tagihan/bayar",
  "/transfer/create",
  "/transfer/status",
  "/deposit/create",
  "/deposit/status",
] as const;

/** mulberry32: small, fast, and the same numbers on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ACTIONS: [Action, number][] = [["buy", 5], ["bill", 2], ["transfer", 2], ["deposit", 2], ["pay", 2], ["saldo", 1], ["riwayat", 1], ["order", 2], ["payorder", 2]];

function weighted<T>(next: () => number, items: [T, number][]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = next() * total;
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1]![0];
}

/**
 * `faults` faults among resellers' actions and clock steps. `store` decides the storage fault: the
 * files get a full or read-only disk, PostgreSQL goes down and comes back.
 */
export function drawSchedule(seed: number, faults: number, users: number, store: "files" | "postgres"): ChaosEvent[] {
  const next = random(seed);
  const kinds = FAULT_KINDS.filter((k) => (store === "postgres" ? k !== "disk-full" && k !== "read-only" : k !== "postgres-down"));
  const events: ChaosEvent[] = [];
  let at = 0;
  for (let f = 0; f < faults; f++) {
    // A few actions and clock steps between two faults.
    const actions = 1 + Math.floor(next() * 3);
    for (let i = 0; i < actions; i++) {
      events.push({ at: at++, type: "act", user: Math.floor(next() * users), action: weighted(next, ACTIONS) });
      if (next() < 0.5) events.push({ at: at++, type: "wait", ms: 500 + Math.floor(next() * 6_000) });
    }
    const kind = kinds[Math.floor(next() * kinds.length)]!;
    const endpoint = PROVIDER_ENDPOINTS[Math.floor(next() * PROVIDER_ENDPOINTS.length)]!;
    events.push({ at: at++, type: "fault", kind, user: Math.floor(next() * users), endpoint, lastsMs: 1_000 + Math.floor(next() * 15_000) });
  }
  return events;
}

export function describeEvent(e: ChaosEvent): string {
  if (e.type === "act") return `#${e.at} reseller ${e.user}: ${e.action}`;
  if (e.type === "wait") return `#${e.at} clock +${e.ms} ms`;
  return `#${e.at} fault ${e.kind} (reseller ${e.user}, ${e.endpoint}, ${e.lastsMs} ms)`;
}
