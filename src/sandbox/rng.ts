/**
 * Seeded randomness so a test with `seed` gets the same ids, sns and add-ons every run, and string
 * hashing for the rules that must depend only on the input (which numbers fail, who has a bill).
 */
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Where the sequence stands (a restored sandbox goes on from there). */
  get position(): number {
    return this.state;
  }

  set position(state: number) {
    this.state = state >>> 0;
  }

  /** mulberry32: tiny, fast and good enough for simulated ids. */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  text(length: number, alphabet = ALNUM): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  digits(length: number): string {
    return this.text(length, "0123456789");
  }
}

