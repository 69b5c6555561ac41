import {
  accountQuery,
  applyAccountFilters,
  appliedUntil,
  requestedAccountFilters,
  ContentError,
  DEFAULT_ACCOUNT_LIMIT,
} from '@analyst/domain-content';

const NOW = new Date('2026-03-10T12:00:00.000Z');

describe('account filters', () => {
  it('applies defaults: no since, until = the acceptance time, the default limit', () => {
    expect(applyAccountFilters(undefined, NOW)).toEqual({
      since: null,
      until: NOW.toISOString(),
      limit: DEFAULT_ACCOUNT_LIMIT,
      keywords: null,
      minViews: null,
      minLikes: null,
      postType: null,
    });
  });

  it('reads a bare date as the whole UTC day', () => {
    const f = applyAccountFilters({ since: '2026-03-01', until: '2026-03-02' }, NOW);
    expect(f).toMatchObject({ since: '2026-03-01T00:00:00.000Z', until: '2026-03-02T23:59:59.999Z' });
  });

  it('refuses dates the calendar lacks and a since after until (naming the defaulted until)', () => {
    expect(() => applyAccountFilters({ since: '2026-02-30' }, NOW)).toThrow(
      /filters\.since must be an ISO 8601/,
    );
    expect(() => applyAccountFilters({ since: '2026-03-05', until: '2026-03-01' }, NOW)).toThrow(
      'filters.since must not be after filters.until',
    );
    expect(() => applyAccountFilters({ since: '2026-04-01' }, NOW)).toThrow(/defaults to now/);
  });

  it('raises a domain error (invalid_filter), which the ingest service maps to 400', () => {
    const refused = (filters: Parameters<typeof applyAccountFilters>[0]) => {
      try {
        applyAccountFilters(filters, NOW);
      } catch (error) {
        return error;
      }
      throw new Error('accepted');
    };
    for (const filters of [
      { until: '2026-04-31' },
      { keywords: ' ' },
      { keywords: { term: 'x', match: 'no' } },
    ]) {
      const error = refused(filters);
      expect(error).toBeInstanceOf(ContentError);
      expect((error as ContentError).code).toBe('invalid_filter');
    }
  });

  it('takes keywords as a string or { term, match }, trimmed and in NFC', () => {
    expect(applyAccountFilters({ keywords: '  vi\u0301deo ' }, NOW).keywords).toEqual({
      term: 'v\u00eddeo',
      match: 'includes',
    });
    expect(applyAccountFilters({ keywords: { term: 'x', match: 'exact' } }, NOW).keywords).toEqual({
      term: 'x',
      match: 'exact',
    });
  });

  it('refuses blank, malformed, unknown-match and over-long keywords', () => {
    expect(() => applyAccountFilters({ keywords: ' ' }, NOW)).toThrow('must not be blank');
    expect(() => applyAccountFilters({ keywords: { term: 'x', other: 1 } }, NOW)).toThrow(
      'must be a string or { term, match }',
    );
    expect(() => applyAccountFilters({ keywords: null }, NOW)).toThrow('must be a string or { term, match }');
    expect(() => applyAccountFilters({ keywords: { term: 'x', match: 'near' } }, NOW)).toThrow(
      'filters.keywords.match must be one of: includes, exact, excludes',
    );
    expect(() => applyAccountFilters({ keywords: 'x'.repeat(101) }, NOW)).toThrow('at most 100 characters');
  });

  it('fingerprints the until as given (null when defaulted), so a later replay matches', () => {
    const applied = applyAccountFilters({}, NOW);
    expect(requestedAccountFilters(applied, {}).until).toBeNull();
    const given = applyAccountFilters({ until: '2026-03-02' }, NOW);
    expect(requestedAccountFilters(given, { until: '2026-03-02' }).until).toBe('2026-03-02T23:59:59.999Z');
  });

  it('asks the provider with until always set (the acceptance time on old jobs)', () => {
    const old = { ...applyAccountFilters({ keywords: 'x' }, NOW), until: null };
    expect(appliedUntil(old, '2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(accountQuery(old, '2026-01-01T00:00:00.000Z')).toEqual({
      until: '2026-01-01T00:00:00.000Z',
      limit: DEFAULT_ACCOUNT_LIMIT,
      keywords: { term: 'x', match: 'includes' },
    });
  });
});
