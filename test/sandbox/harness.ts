/** Starts a sandbox on a ManualClock and talks to it over real HTTP, as the bot's client would. */
import { ManualClock } from "../../src/tools/clock.js";
import { createSandbox, type SandboxOptions } from "../../src/sandbox/index.js";

// Response bodies are loose JSON; tests assert on their shape field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Reply {
  http: number;
  contentType: string;
  text: string;
  json: Json;
}

export async function post(url: string, path: string, form: Record<string, string | number>, init: RequestInit = {}): Promise<Reply> {
  const body = new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    ...init,
  });
  const text = await res.text();
  let json: Json = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // HTML and truncated bodies stay available as text.
  }
  return { http: res.status, contentType: res.headers.get("content-type") ?? "", text, json };
}

export async function startSandbox(opts: SandboxOptions = {}) {
  const clock = new ManualClock();
  const sb = await createSandbox({ clock, seed: 42, settleMs: 5000, ...opts });
  /** Posts with the demo key unless the form brings its own api_key. */
  const call = async (path: string, form: Record<string, string | number> = {}) =>
    (await post(sb.url, path, { api_key: sb.demoKey, ...form })).json as Json;
  return { clock, sb, call };
}

/** The JSON body of a raw fetch response, loosely typed like `post`'s. */
export const jsonOf = async (res: Response): Promise<Json> => res.json();
