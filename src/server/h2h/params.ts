/**
 * An H2H call's form parameters: parsed without a prototype (a field named "__proto__" is a field), the
 * first value of a name wins, and each parameter an endpoint reads is checked against its shape before
 * anything is looked up: a malformed call is a 400 in the provider's shape, never a crash.
 */

export type Params = Record<string, string>;

export class ParamError extends Error {}

/** At most this many characters per parameter (a key is 43, a reff_id at most 64). */
const MAX_PARAM = 256;
const MAX_FIELDS = 40;

const SHAPES = {
  /** A product, service or bank code. */
  code: /^[A-Za-z0-9._-]{1,64}$/,
  /** A reff_id or an id. */
  ref: /^[A-Za-z0-9._-]{1,64}$/,
  /** A phone, meter, customer or account number. */
  target: /^[0-9A-Za-z().\- ]{1,64}$/,
  amount: /^\d{1,12}$/,
  type: /^(prabayar|pascabayar)$/,
  /** A holder's name or a note: letters, digits, spaces and common punctuation. */
  text: /^[\p{L}\p{N} .,'()/&@#:_-]{1,100}$/u,
} as const;
type Shape = keyof typeof SHAPES;

export function parseForm(text: string): Params {
  const out = Object.create(null) as Params;
  let n = 0;
  for (const [k, v] of new URLSearchParams(text)) {
    if (++n > MAX_FIELDS) throw new ParamError("too many fields");
    if (k.length > MAX_PARAM || v.length > MAX_PARAM) throw new ParamError("field too long");
    if (!Object.hasOwn(out, k)) out[k] = v;
  }
  return out;
}

/** The named parameters, trimmed and checked (`type` lower-cased); optional ones empty count as absent. */
export function checked<R extends Record<string, Shape>, O extends Record<string, Shape> = Record<never, Shape>>(
  p: Params,
  required: R,
  optional?: O,
): { [K in keyof R]: string } & { [K in keyof O]?: string } {
  const out: Record<string, string> = {};
  const take = (name: string, shape: Shape, must: boolean) => {
    const raw = Object.hasOwn(p, name) ? p[name]!.trim() : "";
    if (raw === "") {
      if (must) throw new ParamError(`Parameter ${name} wajib diisi`);
      return;
    }
    const value = shape === "type" ? raw.toLowerCase() : raw;
    if (!SHAPES[shape].test(value)) throw new ParamError(`Parameter ${name} tidak valid`);
    out[name] = value;
  };
  for (const [name, shape] of Object.entries(required)) take(name, shape, true);
  for (const [name, shape] of Object.entries(optional ?? {})) take(name, shape, false);
  return out as { [K in keyof R]: string } & { [K in keyof O]?: string };
}
