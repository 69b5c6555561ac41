import { CursorCodec, SamplingError, type CursorBinding } from '@analyst/sampling';

const binding: CursorBinding = {
  teamId: 'team_1',
  scope: 'analysis:an_1',
  query: 'source=all',
  scoreVersion: 3,
};

describe('CursorCodec', () => {
  const codec = new CursorCodec('0123456789abcdef0123456789abcdef');

  it('round-trips the position exactly (floats included) and yields the same token for the same page', () => {
    const after = [0, -1.2345678901234567, 4294967295, 'p1-c9'] as const;
    const token = codec.encode(binding, after, 100);
    expect(codec.decode(token, binding)).toEqual({ after: [...after], served: 100 });
    expect(codec.encode(binding, after, 100)).toBe(token);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toMatch(/an_1|p1-c9|team_1/);
  });

  it.each<[string, Partial<CursorBinding>]>([
    ['another team', { teamId: 'team_2' }],
    ['another analysis', { scope: 'analysis:an_2' }],
    ['other filters', { query: 'source=all&sentiment=positive' }],
    ['another score version', { scoreVersion: 2 }],
  ])('refuses a cursor replayed against %s', (_name, change) => {
    const token = codec.encode(binding, [1, 2, 3, 'c'], 25);
    expect(() => codec.decode(token, { ...binding, ...change })).toThrow(SamplingError);
  });

  it('refuses tokens it did not make: another secret, tampering, garbage', () => {
    const token = codec.encode(binding, [1, 2, 3, 'c'], 25);
    const other = new CursorCodec('another-secret-another-secret-xx');
    expect(() => other.decode(token, binding)).toThrow('invalid cursor');
    const flipped = Buffer.from(token, 'base64url');
    flipped[flipped.length - 1] ^= 1;
    expect(() => codec.decode(flipped.toString('base64url'), binding)).toThrow('invalid cursor');
    for (const junk of ['abc', '!!!', 'x'.repeat(200)])
      expect(() => codec.decode(junk, binding)).toThrow('invalid cursor');
  });
});
