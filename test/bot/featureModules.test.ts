/**
 * The one list of feature modules (src/bot/features/index.ts) declares what each answers: every command
 * and every button family is answered by exactly one module, and the access each module declares is the
 * one telegram/commands.ts holds and the role gate enforces.
 */
import { describe, expect, it } from "vitest";
import type { Role } from "../../src/domain/roles.js";
import { featureModules } from "../../src/bot/features/index.js";
import type { FeatureModule } from "../../src/bot/module.js";
import { allows, roleGate } from "../../src/bot/middlewares/roleGate.js";
import type { BaseContext } from "../../src/bot/context.js";
import { buttonFamilies, cb, firstSegment, MENU_NAMES, type CallbackName } from "../../src/telegram/buttonData.js";
import { buttonAccess, commandAccess, commands, type Access, type CommandId } from "../../src/telegram/commands.js";
import { shopButtons } from "../../src/telegram/shopButtonData.js";
import { orderButton } from "../../src/telegram/orderButtonData.js";

const ROLES: Role[] = [{ kind: "owner" }, { kind: "staff", owner: 1, role: "admin" }, { kind: "staff", owner: 1, role: "cashier" }];

/** Whether the role gate lets a chat of `role` through with this update. */
async function passes(role: Role, update: { text?: string; data?: string }): Promise<boolean> {
  let passed = false;
  const ctx = {
    chat: { id: 2, type: "private" },
    message: update.text === undefined ? undefined : { text: update.text },
    callbackQuery: update.data === undefined ? undefined : { data: update.data },
    role,
    t: (key: string) => key,
    reply: () => Promise.resolve(),
    answerCallbackQuery: () => Promise.resolve(true),
  } as unknown as BaseContext;
  await roleGate(ctx, () => {
    passed = true;
    return Promise.resolve();
  });
  return passed;
}

/** Data a button of the shape carries (the menu's own "open": each other target has its command's access). */
function sample(name: CallbackName): string {
  if (name === "menu") return cb.menu.encode({ name: "open" });
  const shape = cb[name] as { encode(f: unknown): string; longest(): unknown[] };
  return shape.encode(shape.longest()[0]);
}

const FAMILY_SAMPLES: Record<string, string> = {
  sf: shopButtons.home.encode({}),
  sh: shopButtons.settings.encode({}),
  so: orderButton({ act: "check", orderRef: "SO123456ABCDEFGH" }),
};

function entries<K extends string>(r: Readonly<Partial<Record<K, Access>>> | undefined): [K, Access][] {
  return Object.entries(r ?? {}) as [K, Access][];
}

/** What is wrong with a list's declarations, one line each ([] for none). */
async function problems(modules: readonly FeatureModule[]): Promise<string[]> {
  const out: string[] = [];
  const owners = <K extends string>(pick: (m: FeatureModule) => readonly K[]): Map<K, string[]> => {
    const byKey = new Map<K, string[]>();
    for (const m of modules) for (const k of pick(m)) byKey.set(k, [...(byKey.get(k) ?? []), m.name]);
    return byKey;
  };
  const once = <K extends string>(what: string, all: readonly K[], byKey: Map<K, string[]>) => {
    for (const k of all) {
      const names = byKey.get(k) ?? [];
      if (names.length === 0) out.push(`${what} ${k}: answered by no module`);
      if (names.length > 1) out.push(`${what} ${k}: claimed by ${names.join(", ")}`);
    }
  };
  const cmdOwners = owners((m) => Object.keys(m.commands ?? {}) as CommandId[]);
  const btnOwners = owners((m) => Object.keys(m.buttons ?? {}) as CallbackName[]);
  once("command", Object.keys(commands) as CommandId[], cmdOwners);
  once("button", Object.keys(cb) as CallbackName[], btnOwners);

  // A family is answered by the modules owning its shapes or naming its first segment.
  const familyOwners = new Map<string, Set<string>>();
  const claim = (prefix: string, module: string) => familyOwners.set(prefix, new Set([...(familyOwners.get(prefix) ?? []), module]));
  for (const m of modules) {
    for (const name of Object.keys(m.buttons ?? {}) as CallbackName[]) claim(firstSegment(cb[name].pattern), m.name);
    for (const prefix of m.families ?? []) claim(prefix, m.name);
  }
  const registry = buttonFamilies();
  const prefixes = registry.flatMap((f) => [...f.prefixes]);
  once("button family", prefixes, new Map([...familyOwners].map(([p, s]) => [p, [...s]])));
  for (const p of familyOwners.keys()) if (!prefixes.includes(p)) out.push(`button family ${p}: not in the registry (buttonFamilies)`);

  // What a module looks at first must be another module's.
  for (const m of modules) {
    for (const c of m.shares?.commands ?? []) if (!(cmdOwners.get(c) ?? []).some((n) => n !== m.name)) out.push(`${m.name} shares command ${c}: no other module answers it`);
    for (const b of m.shares?.buttons ?? []) if (!(btnOwners.get(b) ?? []).some((n) => n !== m.name)) out.push(`${m.name} shares button ${b}: no other module answers it`);
    for (const f of m.shares?.families ?? []) if (![...(familyOwners.get(f) ?? [])].some((n) => n !== m.name)) out.push(`${m.name} shares family ${f}: no other module answers it`);
  }

  // The declared access: the one commands.ts holds, and what the role gate lets through.
  for (const m of modules) {
    for (const [id, access] of entries<CommandId>(m.commands)) {
      if (commandAccess(id) !== access) out.push(`${m.name}: /${id} declared ${access}, commands.ts says ${commandAccess(id)}`);
      for (const role of ROLES) {
        if ((await passes(role, { text: `/${commands[id][0]}` })) !== allows(role, access)) out.push(`${m.name}: /${id} declared ${access}, the role gate disagrees for ${JSON.stringify(role)}`);
      }
    }
    for (const [name, access] of entries<CallbackName>(m.buttons)) {
      const data = sample(name);
      const gate = buttonAccess(data)?.access;
      if (gate !== access) out.push(`${m.name}: button ${name} declared ${access}, commands.ts says ${gate}`);
      for (const role of ROLES) {
        if ((await passes(role, { data })) !== allows(role, access)) out.push(`${m.name}: button ${name} declared ${access}, the role gate disagrees for ${JSON.stringify(role)}`);
      }
    }
    // The shop's and the orders' families are open at the gate: their handlers tell customers, owners and staff apart.
    for (const prefix of m.families ?? []) {
      const data = FAMILY_SAMPLES[prefix];
      if (data === undefined) out.push(`${m.name}: family ${prefix} has no sample in this test`);
      else for (const role of ROLES) if (!(await passes(role, { data }))) out.push(`${m.name}: family ${prefix}: the role gate refuses ${JSON.stringify(role)}`);
    }
  }

  // Each main-menu button opens one module's action.
  once("menu button", MENU_NAMES.filter((n) => n !== "open"), owners((m) => Object.keys(m.menu ?? {}) as (typeof MENU_NAMES)[number][]));
  return out;
}

describe("the list of feature modules", () => {
  it("answers every command and every button family once, with the access the role gate enforces", async () => {
    expect(await problems(featureModules)).toEqual([]);
  });

  it("names a command or a family that no module answers", async () => {
    const found = await problems(featureModules.filter((m) => m.name !== "cancel"));
    expect(found).toContain("command batal: answered by no module");
    expect(found).toContain("button family cancel: answered by no module");
  });

  it("names a command or a family that two modules claim", async () => {
    const copy: FeatureModule = { name: "copy", composer: () => undefined as never, commands: { saldo: "admin" }, families: ["so"] };
    const found = await problems([...featureModules, copy]);
    expect(found).toContain("command saldo: claimed by balance, copy");
    expect(found).toContain("button family so: claimed by shopPay, copy");
  });

  it("names a declared access the role gate does not enforce", async () => {
    const wrong = featureModules.map((m) => (m.name === "balance" ? { ...m, commands: { saldo: "cashier" as const } } : m));
    const found = await problems(wrong);
    expect(found).toContain("balance: /saldo declared cashier, commands.ts says admin");
    expect(found).toContain('balance: /saldo declared cashier, the role gate disagrees for {"kind":"staff","owner":1,"role":"cashier"}');
  });

  it("the stages run in the list's order: staff, a downline's joining and the audit log before the features, the fallback last", () => {
    const stages = featureModules.map((m) => `${m.name}:${m.stage ?? "main"}`);
    expect(stages.slice(0, 6)).toEqual(["shopfront:shopfront", "staff:beforeKey", "downline join:beforeKey", "audit:beforeKey", "cancel:wayOut", "flows:flows"]);
    expect(stages.at(-1)).toBe("unhandled:last");
  });
});
