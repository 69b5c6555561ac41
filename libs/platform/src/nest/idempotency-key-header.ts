import { IsOptional, Matches } from 'class-validator';

// One alphabet for every route that takes the header (content adds, the admin credit grant): UUIDs
// and ULIDs fit, and the key can be part of a stream name or command id as it is.
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,200}$/;

/**
 * The optional `Idempotency-Key` request header, read with `validateRequest` from
 * `{ 'Idempotency-Key': value }`; the property is named as the header so the message names it.
 */
export class IdempotencyKeyHeader {
  @IsOptional()
  @Matches(IDEMPOTENCY_KEY, {
    message: 'Idempotency-Key must be 1 to 200 characters of letters, digits, _ . : -',
  })
  'Idempotency-Key'?: string;
}
