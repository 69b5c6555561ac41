import { randomBytes } from 'node:crypto';

/** The only source of new ids and secrets, so tests can make them predictable. */
export interface IdGenerator {
  /** A new id with the given prefix, e.g. `an_` or `cj_`. Ids sort roughly by creation time. */
  next(prefix?: string): string;
  /** Random bytes for secrets, base64url encoded. */
  secret(bytes?: number): string;
}

export const ID_GENERATOR = Symbol('IdGenerator');

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export class RandomIdGenerator implements IdGenerator {
  constructor(private readonly now: () => number = Date.now) {}

  next(prefix = ''): string {
    // 9 base-36 digits of milliseconds keep ids time-ordered until the year 5188.
    const time = this.now().toString(36).padStart(9, '0');
    const bytes = randomBytes(10);
    let random = '';
    for (const byte of bytes) random += ALPHABET[byte % 36];
    return `${prefix}${time}${random}`;
  }

  secret(bytes = 24): string {
    return randomBytes(bytes).toString('base64url');
  }
}

/** Deterministic ids for tests: prefix plus a counter. */
export class SequentialIdGenerator implements IdGenerator {
  private counter = 0;

  next(prefix = ''): string {
    this.counter += 1;
    return `${prefix}${this.counter.toString().padStart(8, '0')}`;
  }

  secret(bytes = 24): string {
    this.counter += 1;
    return `secret${this.counter}`.padEnd(bytes, 'x');
  }
}
