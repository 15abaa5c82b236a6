import { createHash } from 'node:crypto';

/**
 * Deterministic randomness for sandbox models. A seed is the SHA-256 of whatever identifies
 * the input (endpoint, asset hashes, parameters), so the same request always yields the
 * same result, and any change in the input yields a different one.
 */

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` seed identically. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sfc32: small, fast, and good enough for test data; state comes from a SHA-256 digest. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  private constructor(private readonly seedHex: string) {
    const digest = Buffer.from(seedHex, 'hex');
    this.a = digest.readUInt32LE(0);
    this.b = digest.readUInt32LE(4);
    this.c = digest.readUInt32LE(8);
    this.d = digest.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  static fromParts(...parts: string[]): Rng {
    return new Rng(createHash('sha256').update(parts.join('\u0000')).digest('hex'));
  }

  /** An independent stream, so adding draws in one place does not shift values elsewhere. */
  fork(label: string): Rng {
    return Rng.fromParts(this.seedHex, label);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Number in [min, max), rounded to `decimals` places. */
  float(min: number, max: number, decimals = 2): number {
    return round(min + this.next() * (max - min), decimals);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick on an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `count` distinct items in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && pool.length > 0) {
      chosen.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
    }
    return chosen;
  }

  /** A string drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(this.next() * alphabet.length)];
    return text;
  }
}

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
