import { classifyAccountLink, classifyLink, classifyPostLink, normalizeLink } from '@analyst/links';

type Row = [raw: string, kind: 'post' | 'account', normalized: string];

function expectRows(platform: string, rows: Row[]): void {
  it.each(rows)('%s → %s %s', (raw, kind, normalized) => {
    expect(classifyLink(raw)).toEqual({ ok: true, kind, platform, normalized });
  });
}

describe('classifyLink: YouTube', () => {
  const watch = 'https://youtube.com/watch?v=dQw4w9WgXcQ';
  expectRows('youtube', [
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'post', watch],
    ['http://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'post', watch],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=youtu.be', 'post', watch],
    ['https://youtu.be/dQw4w9WgXcQ?si=AbCdEfGh12345678', 'post', watch],
    ['https://youtu.be/dQw4w9WgXcQ?t=10', 'post', watch],
    [
      'https://www.youtube.com/watch?app=desktop&v=dQw4w9WgXcQ&list=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs&index=3',
      'post',
      watch,
    ],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'post', watch],
    ['https://youtube.com/shorts/dQw4w9WgXcQ?feature=share', 'post', watch],
    ['https://www.youtube.com/live/dQw4w9WgXcQ?si=x', 'post', watch],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'post', watch],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'post', watch],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ&feature=share', 'post', watch],
    ['www.youtube.com/watch?v=dQw4w9WgXcQ', 'post', watch],
    ['  https://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ#comments  ', 'post', watch],
    ['https://www.youtube.com/watch?v=Ab-_9xYz0Q1', 'post', 'https://youtube.com/watch?v=Ab-_9xYz0Q1'],
    ['https://www.youtube.com/@MrBeast', 'account', 'https://youtube.com/@mrbeast'],
    ['https://youtube.com/@mrbeast/videos', 'account', 'https://youtube.com/@mrbeast'],
    ['https://m.youtube.com/@MrBeast/shorts?si=1', 'account', 'https://youtube.com/@mrbeast'],
    [
      'https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA',
      'account',
      'https://youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA',
    ],
    [
      'https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA/featured',
      'account',
      'https://youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA',
    ],
    ['https://www.youtube.com/c/Veritasium', 'account', 'https://youtube.com/c/veritasium'],
    ['https://www.youtube.com/user/PewDiePie/videos', 'account', 'https://youtube.com/user/pewdiepie'],
  ]);
  it('keeps the case of video ids (two ids differing in case are two videos)', () => {
    expect(normalizeLink('https://youtu.be/dQw4w9WgXcQ')).not.toBe(
      normalizeLink('https://youtu.be/DQW4W9WGXCQ'),
    );
  });
});

describe('classifyLink: TikTok', () => {
  const video = 'https://tiktok.com/@scout2015/video/6718335390845095173';
  expectRows('tiktok', [
    ['https://www.tiktok.com/@scout2015/video/6718335390845095173', 'post', video],
    [
      'https://www.tiktok.com/@Scout2015/video/6718335390845095173?is_from_webapp=1&sender_device=pc&web_id=7012',
      'post',
      video,
    ],
    ['https://m.tiktok.com/@scout2015/video/6718335390845095173/', 'post', video],
    ['tiktok.com/@scout2015/video/6718335390845095173?lang=en&_r=1&_t=8abc', 'post', video],
    [
      'https://www.tiktok.com/@scout2015/photo/7301234567890123456',
      'post',
      'https://tiktok.com/@scout2015/photo/7301234567890123456',
    ],
    ['https://m.tiktok.com/v/6718335390845095173.html', 'post', 'https://tiktok.com/v/6718335390845095173'],
    [
      'https://www.tiktok.com/embed/v2/6718335390845095173',
      'post',
      'https://tiktok.com/v/6718335390845095173',
    ],
    ['https://vm.tiktok.com/ZMeAbC123/', 'post', 'https://vm.tiktok.com/ZMeAbC123'],
    ['https://vt.tiktok.com/ZSYxWv9Qk/?utm_source=copy', 'post', 'https://vt.tiktok.com/ZSYxWv9Qk'],
    ['https://www.tiktok.com/t/ZT8abcdEf/', 'post', 'https://tiktok.com/t/ZT8abcdEf'],
    ['https://www.tiktok.com/@khaby.lame', 'account', 'https://tiktok.com/@khaby.lame'],
    ['https://www.tiktok.com/@Khaby.Lame?lang=en', 'account', 'https://tiktok.com/@khaby.lame'],
  ]);
});

describe('classifyLink: Instagram', () => {
  const p = 'https://instagram.com/p/CxYz123AbC_';
  expectRows('instagram', [
    ['https://www.instagram.com/p/CxYz123AbC_/', 'post', p],
    ['https://instagram.com/p/CxYz123AbC_/?igshid=MzRlODBiNWFlZA==', 'post', p],
    ['https://www.instagram.com/p/CxYz123AbC_/?utm_source=ig_web_copy_link&igsh=MWx0', 'post', p],
    ['https://www.instagram.com/reel/CxYz123AbC_/?img_index=1', 'post', p],
    ['https://www.instagram.com/reels/CxYz123AbC_/', 'post', p],
    ['https://www.instagram.com/tv/CxYz123AbC_', 'post', p],
    ['https://www.instagram.com/natgeo/p/CxYz123AbC_/', 'post', p],
    ['https://instagr.am/p/CxYz123AbC_', 'post', p],
    [
      'https://www.instagram.com/stories/NatGeo/3245678901234567890/',
      'post',
      'https://instagram.com/stories/natgeo/3245678901234567890',
    ],
    ['https://www.instagram.com/natgeo/', 'account', 'https://instagram.com/natgeo'],
    ['https://instagram.com/NatGeo?hl=en', 'account', 'https://instagram.com/natgeo'],
    ['https://www.instagram.com/nat.geo_travel/reels/', 'account', 'https://instagram.com/nat.geo_travel'],
  ]);
});

describe('classifyLink: Facebook (pages)', () => {
  expectRows('facebook', [
    [
      'https://www.facebook.com/nasa/posts/1234567890123456',
      'post',
      'https://facebook.com/nasa/posts/1234567890123456',
    ],
    [
      'https://m.facebook.com/NASA/posts/1234567890123456/?fbclid=IwAR0abc&__tn__=K-R',
      'post',
      'https://facebook.com/nasa/posts/1234567890123456',
    ],
    [
      'https://www.facebook.com/NASA/posts/pfbid02aBcDeFgHiJkLmNoPqRsTuVwXyZ123456789',
      'post',
      'https://facebook.com/nasa/posts/pfbid02aBcDeFgHiJkLmNoPqRsTuVwXyZ123456789',
    ],
    [
      'https://www.facebook.com/NASA/videos/987654321012345/',
      'post',
      'https://facebook.com/watch?v=987654321012345',
    ],
    [
      'https://www.facebook.com/NASA/videos/artemis-launch/987654321012345/',
      'post',
      'https://facebook.com/watch?v=987654321012345',
    ],
    [
      'https://www.facebook.com/watch/?v=987654321012345&ref=sharing',
      'post',
      'https://facebook.com/watch?v=987654321012345',
    ],
    ['https://fb.com/watch?v=987654321012345', 'post', 'https://facebook.com/watch?v=987654321012345'],
    [
      'https://www.facebook.com/reel/1122334455667788?mibextid=abc',
      'post',
      'https://facebook.com/reel/1122334455667788',
    ],
    [
      'https://www.facebook.com/NASA/photos/a.123456789/555666777888999/',
      'post',
      'https://facebook.com/photo?fbid=555666777888999',
    ],
    [
      'https://www.facebook.com/photo/?fbid=555666777888999&set=a.123456789',
      'post',
      'https://facebook.com/photo?fbid=555666777888999',
    ],
    [
      'https://www.facebook.com/photo.php?fbid=555666777888999',
      'post',
      'https://facebook.com/photo?fbid=555666777888999',
    ],
    [
      'https://www.facebook.com/permalink.php?story_fbid=pfbid0abcdefghijklmnopqrstuvwxyz12345&id=100064531234567',
      'post',
      'https://facebook.com/permalink.php?story_fbid=pfbid0abcdefghijklmnopqrstuvwxyz12345&id=100064531234567',
    ],
    ['https://www.facebook.com/share/p/1AbCdEfGh2/', 'post', 'https://facebook.com/share/p/1AbCdEfGh2'],
    ['https://fb.watch/nQ3xYz_Ab/'.replace('_', ''), 'post', 'https://fb.watch/nQ3xYzAb'],
    ['https://www.facebook.com/NASA', 'account', 'https://facebook.com/nasa'],
    ['https://web.facebook.com/nasa/about/', 'account', 'https://facebook.com/nasa'],
    [
      'https://www.facebook.com/people/Corner-Bakery-Co/100083456789012/',
      'account',
      'https://facebook.com/100083456789012',
    ],
    ['https://www.facebook.com/pg/nasa/posts/', 'account', 'https://facebook.com/nasa'],
  ]);
  it.each([
    'https://www.facebook.com/profile.php?id=100004567890123',
    'https://www.facebook.com/stories/100004567890123/UzpfSVNDOjEy/',
    'https://www.facebook.com/story.php?story_fbid=123',
    'https://www.facebook.com/groups/123456789/posts/987654321/',
    'https://www.facebook.com/events/123456789012345/',
    'https://www.facebook.com/',
  ])('%s is unsupported_platform (not a page or a page post)', (raw) => {
    expect(classifyLink(raw)).toEqual({ ok: false, reason: 'unsupported_platform' });
  });
});

describe('classifyLink: X / Twitter', () => {
  const status = 'https://x.com/jack/status/20';
  expectRows('x', [
    ['https://twitter.com/jack/status/20', 'post', status],
    ['https://x.com/jack/status/20', 'post', status],
    ['https://mobile.twitter.com/Jack/status/20?s=20&t=AbCdEf', 'post', status],
    ['https://www.x.com/jack/statuses/20/', 'post', status],
    ['https://twitter.com/jack/status/20/photo/1', 'post', status],
    ['https://x.com/jack/status/20?ref_src=twsrc%5Etfw', 'post', status],
    [
      'https://twitter.com/i/web/status/1790000000000000000',
      'post',
      'https://x.com/i/status/1790000000000000000',
    ],
    ['https://x.com/i/status/1790000000000000000', 'post', 'https://x.com/i/status/1790000000000000000'],
    ['https://twitter.com/NASA', 'account', 'https://x.com/nasa'],
    ['https://x.com/nasa/media', 'account', 'https://x.com/nasa'],
    ['x.com/elonmusk/with_replies', 'account', 'https://x.com/elonmusk'],
  ]);
});

describe('classifyLink: Reddit (posts only)', () => {
  const post = 'https://reddit.com/comments/1abc2de';
  expectRows('reddit', [
    ['https://www.reddit.com/r/AskReddit/comments/1abc2de/what_is_your_favorite_book/', 'post', post],
    [
      'https://old.reddit.com/r/askreddit/comments/1abc2de/what_is_your_favorite_book/?utm_source=share&utm_medium=web2x',
      'post',
      post,
    ],
    ['https://np.reddit.com/r/AskReddit/comments/1ABC2DE/', 'post', post],
    ['https://redd.it/1abc2de', 'post', post],
    ['https://reddit.com/comments/1abc2de', 'post', post],
    ['https://www.reddit.com/gallery/1abc2de', 'post', post],
    [
      'https://www.reddit.com/r/AskReddit/comments/1abc2de/what_is_your_favorite_book/kx9z8y7/?context=3',
      'post',
      post,
    ],
    ['https://www.reddit.com/user/spez/comments/1abc2de/an_update/', 'post', post],
    ['https://m.reddit.com/r/AskReddit/comments/1abc2de', 'post', post],
    [
      'https://www.reddit.com/r/AskReddit/s/Ab3dEf6hIj',
      'post',
      'https://reddit.com/r/askreddit/s/Ab3dEf6hIj',
    ],
  ]);
  it.each([
    'https://www.reddit.com/user/spez/',
    'https://www.reddit.com/u/spez',
    'https://www.reddit.com/r/AskReddit/',
  ])('%s (a Reddit account or subreddit) is unsupported_platform', (raw) =>
    expect(classifyLink(raw)).toEqual({ ok: false, reason: 'unsupported_platform' }),
  );
});

describe('classifyLink: LinkedIn (posts only)', () => {
  const activity = 'https://linkedin.com/feed/update/urn:li:activity:7123456789012345678';
  expectRows('linkedin', [
    ['https://www.linkedin.com/feed/update/urn:li:activity:7123456789012345678/', 'post', activity],
    [
      'https://www.linkedin.com/feed/update/urn%3Ali%3Aactivity%3A7123456789012345678?utm_source=share',
      'post',
      activity,
    ],
    [
      'https://www.linkedin.com/posts/jane-doe_hiring-remote-activity-7123456789012345678-AbCd?utm_source=share&utm_medium=member_desktop',
      'post',
      activity,
    ],
    [
      'https://www.linkedin.com/posts/acme-corp_launch-ugcPost-7123456789012345679-XyZw/',
      'post',
      'https://linkedin.com/feed/update/urn:li:ugcPost:7123456789012345679',
    ],
    [
      'https://linkedin.com/feed/update/urn:li:share:7123456789012345680',
      'post',
      'https://linkedin.com/feed/update/urn:li:share:7123456789012345680',
    ],
    [
      'https://www.linkedin.com/pulse/Future-Of-Remote-Work-Jane-Doe/',
      'post',
      'https://linkedin.com/pulse/future-of-remote-work-jane-doe',
    ],
  ]);
  it.each([
    'https://www.linkedin.com/in/janedoe/',
    'https://www.linkedin.com/company/acme/',
    'https://lnkd.in/gAbC123',
  ])('%s is unsupported_platform', (raw) =>
    expect(classifyLink(raw)).toEqual({ ok: false, reason: 'unsupported_platform' }),
  );
});

describe('classifyLink: Threads', () => {
  const post = 'https://threads.com/@zuck/post/C8AbCdEfGhI';
  expectRows('threads', [
    ['https://www.threads.net/@zuck/post/C8AbCdEfGhI', 'post', post],
    ['https://threads.net/@Zuck/post/C8AbCdEfGhI/?xmt=AQGz', 'post', post],
    ['https://www.threads.com/@zuck/post/C8AbCdEfGhI?igshid=NTc4', 'post', post],
    ['https://www.threads.net/@zuck', 'account', 'https://threads.com/@zuck'],
    ['https://threads.com/@Zuck/', 'account', 'https://threads.com/@zuck'],
  ]);
});

describe('classifyLink: errors', () => {
  it.each([
    '',
    '   ',
    'not a url',
    'youtube',
    'ftp://youtube.com/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)',
    'mailto:someone@example.com',
    'https://',
    'http://localhost/watch',
    'https://youtube.com/watch?v=dQw4w9WgXcQ and more',
  ])('%j is invalid_url', (raw) => {
    expect(classifyLink(raw)).toEqual({ ok: false, reason: 'invalid_url' });
  });
  it('a non-string is invalid_url', () => {
    expect(classifyLink(42 as unknown as string)).toEqual({ ok: false, reason: 'invalid_url' });
  });
  it.each([
    'https://example.com/post/1',
    'https://vimeo.com/76979871',
    'https://www.pinterest.com/pin/123456/',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/',
    'https://www.youtube.com/playlist?list=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs',
    'https://www.youtube.com/results?search_query=cats',
    'https://www.youtube.com/watch?v=tooShort',
    'https://www.tiktok.com/@scout2015/video/notanumber',
    'https://www.tiktok.com/explore',
    'https://www.instagram.com/explore/tags/cats/',
    'https://x.com/home',
    'https://x.com/search?q=cats',
    'https://www.threads.net/search',
  ])('%s is unsupported_platform', (raw) => {
    expect(classifyLink(raw)).toEqual({ ok: false, reason: 'unsupported_platform' });
  });
});

describe('two spellings of one post normalize equal', () => {
  it.each([
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'http://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=1m2s'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://twitter.com/Jack/status/20?s=21', 'https://x.com/jack/status/20/'],
    ['https://www.instagram.com/reel/CxYz123AbC_/?igshid=abc', 'instagram.com/p/CxYz123AbC_'],
    ['https://redd.it/1abc2de', 'https://old.reddit.com/r/AskReddit/comments/1abc2de/title/'],
    [
      'https://www.tiktok.com/@Scout2015/video/6718335390845095173?_t=8',
      'https://tiktok.com/@scout2015/video/6718335390845095173',
    ],
    [
      'https://www.facebook.com/NASA/videos/x/987654321012345/',
      'https://m.facebook.com/watch/?v=987654321012345&fbclid=abc',
    ],
    [
      'https://www.linkedin.com/posts/jane_x-activity-7123456789012345678-AbCd',
      'https://linkedin.com/feed/update/urn:li:activity:7123456789012345678',
    ],
    ['https://threads.net/@zuck/post/C8AbCdEfGhI', 'https://www.threads.com/@ZUCK/post/C8AbCdEfGhI?xmt=1'],
  ])('%s ≡ %s', (a, b) => {
    const na = normalizeLink(a);
    expect(na).not.toBeNull();
    expect(na).toBe(normalizeLink(b));
  });

  it('normalizing is idempotent', () => {
    for (const raw of [
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.facebook.com/permalink.php?story_fbid=12345678&id=100064531234567',
      'https://twitter.com/i/web/status/1790000000000000000',
    ]) {
      const once = normalizeLink(raw)!;
      expect(normalizeLink(once)).toBe(once);
    }
  });
});

describe('classifyPostLink / classifyAccountLink', () => {
  it('an account URL sent as a post is unsupported_platform, and a post URL sent as an account', () => {
    expect(classifyPostLink('https://www.tiktok.com/@khaby.lame')).toEqual({
      ok: false,
      reason: 'unsupported_platform',
    });
    expect(classifyAccountLink('https://youtu.be/dQw4w9WgXcQ')).toEqual({
      ok: false,
      reason: 'unsupported_platform',
    });
    expect(classifyPostLink('https://youtu.be/dQw4w9WgXcQ')).toMatchObject({ ok: true, kind: 'post' });
    expect(classifyAccountLink('https://x.com/nasa')).toMatchObject({
      ok: true,
      kind: 'account',
      platform: 'x',
    });
    expect(classifyAccountLink('nope')).toEqual({ ok: false, reason: 'invalid_url' });
  });
});
