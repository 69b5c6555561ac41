import { ProviderUnavailableError, type FetchResult, type FetchedComment } from '@analyst/contracts';
import { classifyLink } from '@analyst/links';
import { SimulatedProvider, simulatedCommentCount } from '@analyst/provider-sim';

const provider = new SimulatedProvider();

function ok(result: FetchResult): Extract<FetchResult, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return result;
}

/** Links whose full sections hold at least `min` comments (found by scanning a deterministic id range). */
function linksWithComments(min: number, how = 3): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < how; i++) {
    const link = `https://x.com/creator${i}/status/${1790000000000000000 + i}`;
    if ((simulatedCommentCount(link) ?? 0) >= min) out.push(link);
  }
  return out;
}

const SAMPLE_LINKS = [
  'https://youtu.be/dQw4w9WgXcQ',
  'https://www.tiktok.com/@scout2015/video/6718335390845095173',
  'https://www.instagram.com/reel/CxYz123AbC_/',
  'https://www.facebook.com/nasa/posts/1234567890123456',
  'https://twitter.com/jack/status/20',
  'https://redd.it/1abc2de',
  'https://www.linkedin.com/feed/update/urn:li:activity:7123456789012345678',
  'https://www.threads.net/@zuck/post/C8AbCdEfGhI',
];

describe('SimulatedProvider.fetchPost', () => {
  it('is deterministic: the same link gives the same post and comments, across instances and spellings', async () => {
    const a = await provider.fetchPost('https://www.youtube.com/watch?v=aBcDeFgHiJk', { fullRead: true });
    const b = await new SimulatedProvider().fetchPost('https://youtu.be/aBcDeFgHiJk?si=share', {
      fullRead: true,
    });
    expect(b).toEqual(a);
  });

  it.each(SAMPLE_LINKS)('%s yields a realistic post of its platform', async (link) => {
    const { post, comments } = ok(await provider.fetchPost(link, { fullRead: true }));
    const classified = classifyLink(link);
    expect(
      classified.ok && post.platform === classified.platform && post.link === classified.normalized,
    ).toBe(true);
    expect(post.creator.username).toMatch(/^[a-z0-9._]+$/);
    expect(post.creator.name).toMatch(/^\S+ \S+$/);
    expect(post.title.length).toBeGreaterThan(5);
    expect(post.caption).toMatch(/#\w+/);
    expect(post.engagement.views).toBeGreaterThanOrEqual(50);
    expect(post.engagement.likes).toBeLessThanOrEqual(post.engagement.views);
    expect(post.engagement.comments).toBe(comments.length);
    expect(Date.parse(post.postedAt)).toBeLessThan(Date.parse('2026-11-01T00:00:00Z'));
    expect(Date.parse(post.postedAt)).toBeGreaterThan(Date.parse('2026-08-01T00:00:00Z'));
    for (const c of comments)
      expect(Date.parse(c.postedAt)).toBeGreaterThanOrEqual(Date.parse(post.postedAt));
  });

  it('uses the handle a link carries as the creator', async () => {
    expect(
      ok(await provider.fetchPost('https://x.com/jack/status/20', { fullRead: false, commentLimit: 1 })).post
        .creator.username,
    ).toBe('jack');
    expect(
      ok(
        await provider.fetchPost('https://www.facebook.com/NASA/posts/1234567890123456', {
          fullRead: false,
          commentLimit: 1,
        }),
      ).post.creator.username,
    ).toBe('nasa');
  });

  it('gives post types by platform and link shape', async () => {
    expect(
      ok(
        await provider.fetchPost('https://www.instagram.com/stories/natgeo/3245678901234567890/', {
          fullRead: false,
        }),
      ).post.postType,
    ).toBe('story');
    expect(
      ok(await provider.fetchPost('https://www.facebook.com/reel/1122334455667788', { fullRead: false })).post
        .postType,
    ).toBe('reel');
    const youtube = ok(await provider.fetchPost('https://youtu.be/dQw4w9WgXcQ', { fullRead: false }));
    expect(['video', 'short']).toContain(youtube.post.postType);
    expect(youtube.post.thumbnail).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg');
    expect(youtube.post.description).toContain('Chapters:');
  });

  it('honours commentLimit with a consistent prefix, and fullRead ignores it', async () => {
    const [link] = linksWithComments(500, 1);
    const full = ok(await provider.fetchPost(link, { fullRead: true }));
    const capped = ok(await provider.fetchPost(link, { fullRead: false, commentLimit: 100 }));
    const fullIgnoringCap = ok(await provider.fetchPost(link, { fullRead: true, commentLimit: 100 }));
    expect(full.comments.length).toBe(simulatedCommentCount(link));
    expect(capped.comments).toHaveLength(100);
    expect(capped.comments).toEqual(full.comments.slice(0, 100));
    expect(fullIgnoringCap.comments).toHaveLength(full.comments.length);
    const ids = new Set(capped.comments.map((c) => c.id));
    for (const c of capped.comments) if (c.parentId) expect(ids.has(c.parentId)).toBe(true);
  });

  it('varies the size of comment sections from 0 to 2,000', () => {
    const counts = Array.from({ length: 400 }, (_, i) =>
      simulatedCommentCount(`https://youtube.com/watch?v=${String(i).padStart(11, 'v')}`)!,
    );
    expect(Math.min(...counts)).toBe(0);
    expect(Math.max(...counts)).toBeGreaterThan(1000);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2000);
    expect(counts.filter((n) => n > 0 && n < 50).length).toBeGreaterThan(40);
  });

  describe('comment sections have the features the scorer and analyses rely on', () => {
    let all: FetchedComment[] = [];
    beforeAll(async () => {
      for (const link of linksWithComments(300, 6))
        all = all.concat(ok(await provider.fetchPost(link, { fullRead: true })).comments);
    });
    const share = (pred: (c: FetchedComment) => boolean) => all.filter(pred).length / all.length;

    it('replies, including reply chains', () => {
      const byId = new Map(all.map((c) => [c.id, c]));
      expect(share((c) => c.parentId !== null)).toBeGreaterThan(0.1);
      expect(all.some((c) => c.parentId && byId.get(c.parentId)?.parentId)).toBe(true);
    });
    it('a few percent hidden', () => {
      expect(share((c) => c.hidden)).toBeGreaterThan(0.01);
      expect(share((c) => c.hidden)).toBeLessThan(0.15);
    });
    it('emoji, @mentions, questions and other languages', () => {
      expect(share((c) => /\p{Extended_Pictographic}/u.test(c.body))).toBeGreaterThan(0.05);
      expect(share((c) => /@\w/.test(c.body))).toBeGreaterThan(0.01);
      expect(share((c) => c.body.includes('?'))).toBeGreaterThan(0.03);
      expect(all.some((c) => /vídeo|acuerdo|merci|parabéns|Très/.test(c.body))).toBe(true);
    });
    it('creator replies, always as replies', () => {
      const creator = all.filter((c) => c.authorIsCreator);
      expect(creator.length).toBeGreaterThan(0);
      for (const c of creator) expect(c.parentId).not.toBeNull();
    });
    it('likes with a long tail: most comments have few, some have many', () => {
      const likes = all.map((c) => c.likes).sort((a, b) => a - b);
      expect(likes[Math.floor(likes.length / 2)]).toBeLessThan(10);
      expect(likes[likes.length - 1]).toBeGreaterThan(50 * Math.max(1, likes[Math.floor(likes.length / 2)]));
    });
    it('comments mention the post topics', () => {
      expect(
        share((c) =>
          /rent control|zoning|mortgage|sourdough|protein|index funds|battery|camera|gaming|indie|solar|transit|office|travel|airlines|charging|meal prep|cardio|creatine|speedrunning|carbon|burnout|trains|insurance|phones|updates|design|preservation|debt|retirement|budgeting|emergency|heat|supply|buyers|cast iron|air fryer|knife|overload|workouts|microtransactions|four-day|async|setup|overtourism|solo|EV|range|diets|waves|tax/i.test(
            c.body,
          ),
        ),
      ).toBeGreaterThan(0.2);
    });
    it('unique ids, oldest first', () => {
      expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    });
  });

  it.each([
    ['https://www.instagram.com/p/sim-unreachable-1/', 'unreachable'],
    ['https://threads.net/@demo/post/sim-fail-2', 'failed'],
    ['https://www.facebook.com/sim-holding/posts/1234567890', 'holding'],
  ])('marker link %s → %s', async (link, status) => {
    const r = await provider.fetchPost(link, { fullRead: false });
    expect(r.status).toBe(status);
    expect('reason' in r && r.reason.length > 0).toBe(true);
  });

  it('sim-empty → ok with zero comments', async () => {
    const r = ok(await provider.fetchPost('https://youtu.be/sim-empty-1', { fullRead: true }));
    expect(r.comments).toEqual([]);
    expect(r.post.engagement.comments).toBe(0);
    expect(simulatedCommentCount('https://youtu.be/sim-empty-1')).toBe(0);
  });

  it('a link that is not a post → failed', async () => {
    expect((await provider.fetchPost('https://x.com/nasa', { fullRead: false })).status).toBe('failed');
    expect((await provider.fetchPost('not a url', { fullRead: false })).status).toBe('failed');
  });

  it('takes an injected reference date', async () => {
    const later = new SimulatedProvider({ referenceDate: '2027-06-01T00:00:00Z' });
    const post = ok(await later.fetchPost('https://youtu.be/dQw4w9WgXcQ', { fullRead: false })).post;
    expect(post.postedAt > '2027-03-01').toBe(true);
    expect(() => new SimulatedProvider({ referenceDate: 'nope' })).toThrow(RangeError);
  });
});

describe('SimulatedProvider.discoverAccount', () => {
  const account = 'https://www.tiktok.com/@khaby.lame';

  it('lists 30-60 posts of the last 90 days, newest first, deterministically', async () => {
    const all = await provider.discoverAccount(account, { limit: 100 });
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.length).toBeLessThanOrEqual(60);
    expect(await provider.discoverAccount('tiktok.com/@Khaby.Lame/', { limit: 100 })).toEqual(all);
    for (let i = 1; i < all.length; i++) expect(all[i - 1].postedAt >= all[i].postedAt).toBe(true);
    expect(all[all.length - 1].postedAt >= '2026-08-03').toBe(true);
  });

  it.each([
    'https://www.youtube.com/@mkbhd',
    'https://www.tiktok.com/@khaby.lame',
    'https://www.instagram.com/natgeo/',
    'https://www.facebook.com/nasa',
    'https://x.com/nasa',
    'https://www.threads.net/@zuck',
  ])(
    'discovered links of %s classify as posts of the same platform and match what fetchPost returns',
    async (url) => {
      const found = await provider.discoverAccount(url, { limit: 5 });
      const accountPlatform = classifyLink(url).ok && (classifyLink(url) as { platform: string }).platform;
      expect(found).toHaveLength(5);
      for (const d of found) {
        const c = classifyLink(d.link);
        expect(c).toMatchObject({ ok: true, kind: 'post', platform: accountPlatform, normalized: d.link });
        const { post } = ok(await provider.fetchPost(d.link, { fullRead: false, commentLimit: 0 }));
        expect({
          postedAt: post.postedAt,
          postType: post.postType,
          caption: post.caption,
          views: post.engagement.views,
          likes: post.engagement.likes,
        }).toEqual({
          postedAt: d.postedAt,
          postType: d.postType,
          caption: d.caption,
          ...d.engagement,
        });
      }
    },
  );

  it('keeps one niche per account, so the creator of handle links is the account', async () => {
    const found = await provider.discoverAccount('https://x.com/nasa', { limit: 10 });
    const tags = new Set(found.map((d) => /#\w+/.exec(d.caption)![0]));
    expect(tags.size).toBe(1);
    const { post } = ok(await provider.fetchPost(found[0].link, { fullRead: false, commentLimit: 0 }));
    expect(post.creator.username).toBe('nasa');
  });

  it('honours since, until (bare dates too) and limit at the source', async () => {
    const all = await provider.discoverAccount(account, { limit: 100 });
    const since = '2026-09-15';
    const until = '2026-10-15T00:00:00Z';
    const window = await provider.discoverAccount(account, { limit: 100, since, until });
    expect(window).toEqual(
      all.filter((d) => d.postedAt >= '2026-09-15T00:00:00.000Z' && d.postedAt <= '2026-10-15T00:00:00.000Z'),
    );
    expect(window.length).toBeGreaterThan(0);
    expect(await provider.discoverAccount(account, { limit: 3, since })).toEqual(
      all.filter((d) => d.postedAt >= since).slice(0, 3),
    );
  });

  it('filters captions by keywords: includes, exact (whole words), excludes, case-insensitively', async () => {
    const all = await provider.discoverAccount(account, { limit: 100 });
    const term = /#\w+/.exec(all[0].caption)![0].slice(1, 4).toUpperCase();
    const includes = await provider.discoverAccount(account, {
      limit: 100,
      keywords: { term, match: 'includes' },
    });
    const excludes = await provider.discoverAccount(account, {
      limit: 100,
      keywords: { term, match: 'excludes' },
    });
    expect(includes.length + excludes.length).toBe(all.length);
    expect(includes.every((d) => d.caption.toLowerCase().includes(term.toLowerCase()))).toBe(true);
    const word = all[0].caption.split(' ').find((w) => /^[a-z]{5,}$/.test(w))!;
    const exact = await provider.discoverAccount(account, {
      limit: 100,
      keywords: { term: word.toUpperCase(), match: 'exact' },
    });
    expect(exact.length).toBeGreaterThan(0);
    expect(exact.every((d) => new RegExp(`\\b${word}\\b`, 'i').test(d.caption))).toBe(true);
    const partial = await provider.discoverAccount(account, {
      limit: 100,
      keywords: { term: word.slice(0, -1), match: 'exact' },
    });
    expect(partial.every((d) => new RegExp(`\\b${word.slice(0, -1)}\\b`, 'i').test(d.caption))).toBe(true);
  });

  it('sim-provider-down throws ProviderUnavailableError every time; sim-no-match returns []', async () => {
    for (let i = 0; i < 3; i++)
      await expect(
        provider.discoverAccount('https://www.facebook.com/sim-provider-down', { limit: 10 }),
      ).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await provider.discoverAccount('https://www.youtube.com/@sim-no-match', { limit: 10 })).toEqual(
      [],
    );
  });
});
