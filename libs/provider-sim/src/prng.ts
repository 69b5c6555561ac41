import { createHash } from 'node:crypto';

/**
 * A small seeded PRNG (sfc32) keyed by a SHA-256 of a string. Everything the simulated provider
 * invents comes from one of these, so the same link always yields the same post and comments.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    const h = createHash('sha256').update(seed).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12) | 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Index drawn with the given non-negative weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Pareto-tailed count: mostly 0-2, occasionally thousands times `scale`. */
  longTail(scale: number, alpha = 1.3): number {
    const u = 1 - this.next();
    return Math.floor((Math.pow(u, -1 / alpha) - 1) * scale);
  }

  /** Lowercase hex string of the given length. */
  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += Math.floor(this.next() * 0x10000)
        .toString(16)
        .padStart(4, '0');
    return out.slice(0, length);
  }

  /** Characters drawn from an alphabet. */
  code(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  digits(length: number): string {
    return String(this.int(1, 9)) + this.code(length - 1, '0123456789');
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
