import type { FastifyRequest } from 'fastify';
import { ApiError } from '@analyst/contracts';
import { parseContentJobsQuery } from '../src/content-jobs/content-jobs-query';
import { idempotencyKeyOf } from '../src/http/http-helpers';
import { toApiError } from '../src/http/ingest-error.mapping';

/** As a client sees it: the refusal through ingest's one mapping. */
const refusal = (read: () => unknown): ApiError => {
  try {
    read();
  } catch (e) {
    return toApiError(e) as ApiError;
  }
  throw new Error('expected a 400');
};

const STATUSES = 'status must be one of: discovering, queuing, syncing, completed, partial, failed';

describe('GET /content/jobs query: ContentJobsQueryDto, then read', () => {
  it.each<[Record<string, unknown>, string]>([
    [{ status: 'bogus' }, STATUSES],
    [{ status: ['syncing', 'failed'] }, STATUSES],
    [{ limit: '0' }, 'limit must be an integer from 1 to 100 written in decimal digits, got "0"'],
    [{ limit: '1e2' }, 'limit must be an integer from 1 to 100 written in decimal digits, got "1e2"'],
    [{ limit: ['5', '6'] }, 'limit must be given once'],
  ])('refuses %j: 400 invalid_request, %s', (query, message) => {
    const e = refusal(() => parseContentJobsQuery(query));
    expect([e.status, e.code, e.message]).toEqual([400, 'invalid_request', message]);
  });

  it('accepts a status, a limit and the target team, read as the route uses them', () => {
    expect(parseContentJobsQuery({})).toEqual({ status: undefined, limit: 50 });
    expect(parseContentJobsQuery({ status: 'syncing', limit: '100', teamId: 'tm_1' })).toEqual({
      status: 'syncing',
      limit: 100,
    });
  });

  it('names every fault when both are wrong', () => {
    expect(refusal(() => parseContentJobsQuery({ status: 'bogus', limit: '0' })).message).toBe(
      `${STATUSES}; limit must be an integer from 1 to 100 written in decimal digits, got "0"`,
    );
  });
});

describe('the Idempotency-Key header of the content add routes', () => {
  const request = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as FastifyRequest;

  it('refuses a key outside the alphabet: 400 invalid_request naming the header', () => {
    for (const key of ['', 'has space', 'k'.repeat(201)]) {
      const e = refusal(() => idempotencyKeyOf(request({ 'idempotency-key': key })));
      expect([e.status, e.code, e.message]).toEqual([
        400,
        'invalid_request',
        'Idempotency-Key must be 1 to 200 characters of letters, digits, _ . : -',
      ]);
    }
  });

  it('accepts a key (the first of repeated ones), or none', () => {
    expect(idempotencyKeyOf(request({ 'idempotency-key': 'job-01J9:a_b.c' }))).toBe('job-01J9:a_b.c');
    expect(idempotencyKeyOf(request({ 'idempotency-key': ['one', 'two'] }))).toBe('one');
    expect(idempotencyKeyOf(request({}))).toBeNull();
  });
});
