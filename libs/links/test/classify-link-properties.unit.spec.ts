import fc from 'fast-check';
import { classifyLink } from '@analyst/links';

const hosts = [
  'youtube.com',
  'www.youtube.com',
  'youtu.be',
  'tiktok.com',
  'vm.tiktok.com',
  'instagram.com',
  'facebook.com',
  'fb.watch',
  'x.com',
  'twitter.com',
  'reddit.com',
  'redd.it',
  'linkedin.com',
  'threads.net',
  'example.com',
];
const segment = fc.oneof(
  fc.constantFrom(
    'watch',
    'shorts',
    '@Someone',
    'video',
    'p',
    'reel',
    'status',
    'posts',
    'comments',
    'r',
    'feed',
    'update',
    'post',
    'videos',
    'photos',
    'i',
    'web',
  ),
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,24}$/),
);
const url = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    fc.constantFrom(...hosts),
    fc.array(segment, { maxLength: 5 }),
    fc.array(
      fc.tuple(
        fc.constantFrom('v', 'si', 'utm_source', 't', 'fbid', 'story_fbid', 'id'),
        fc.stringMatching(/^[A-Za-z0-9]{1,20}$/),
      ),
      { maxLength: 3 },
    ),
  )
  .map(
    ([scheme, host, segs, params]) =>
      `${scheme}://${host}/${segs.join('/')}${params.length ? '?' + params.map(([k, v]) => `${k}=${v}`).join('&') : ''}`,
  );

describe('classifyLink properties', () => {
  it('never throws on arbitrary input and answers with a known reason', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), url), (raw) => {
        const c = classifyLink(raw);
        if (!c.ok) expect(['invalid_url', 'unsupported_platform']).toContain(c.reason);
      }),
      { numRuns: 2000 },
    );
  });

  it('a normalized link classifies to itself with the same kind and platform (idempotent)', () => {
    fc.assert(
      fc.property(url, (raw) => {
        const c = classifyLink(raw);
        if (!c.ok) return;
        expect(c.normalized.startsWith('https://')).toBe(true);
        expect(classifyLink(c.normalized)).toEqual(c);
      }),
      { numRuns: 3000 },
    );
  });
});
