import { IdempotencyKeyHeader, validateRequest } from '@analyst/platform';

class Refused extends Error {}
const refuse = (message: string) => new Refused(message);
const read = (value: unknown) =>
  validateRequest(IdempotencyKeyHeader, { 'Idempotency-Key': value }, refuse)['Idempotency-Key'];

describe('IdempotencyKeyHeader: the optional Idempotency-Key header', () => {
  it('accepts a key of letters, digits and _ . : - up to 200 characters, or none', () => {
    expect(read('01J9Z3-uuid_v4.x:1')).toBe('01J9Z3-uuid_v4.x:1');
    expect(read('k'.repeat(200))).toBe('k'.repeat(200));
    expect(read(undefined)).toBeUndefined();
  });

  it('refuses anything else, naming the header', () => {
    for (const value of ['', 'a b', 'k'.repeat(201), 'ключ'])
      expect(() => read(value)).toThrow(
        new Refused('Idempotency-Key must be 1 to 200 characters of letters, digits, _ . : -'),
      );
  });
});
