import type { Platform } from '@analyst/contracts';
import { MemoryReadStore } from '@analyst/platform';
import { POSTS } from '../src/ingest.tokens';
import { classifyPostLinks } from '../src/steps/classify-links';
import { Dedupe } from '../src/steps/dedupe';

const video = (id: string) => `https://www.youtube.com/watch?v=${id.padEnd(11, 'x')}`;
/** A provider for every platform: `supports` absent. */
const everywhere = {};

describe('step 1, classifyPostLinks: given the links of a request, expect candidates and rejections', () => {
  it('keeps a post link with its normalized key, rejects what is not a supported post link', () => {
    const tiktok = 'https://www.tiktok.com/@creator/video/7300000000000000001';
    const classified = classifyPostLinks(
      [video('a1'), 'not a link', 'https://www.youtube.com/@maker', tiktok],
      { supports: (platform: Platform) => platform !== 'tiktok' },
    );
    expect(classified.candidates).toEqual([
      { link: video('a1'), normalized: 'https://youtube.com/watch?v=a1xxxxxxxxx', platform: 'youtube' },
    ]);
    expect(classified.rejected).toEqual([
      { link: 'not a link', reason: 'invalid_url' },
      { link: 'https://www.youtube.com/@maker', reason: 'unsupported_platform' },
      { link: tiktok, reason: 'unsupported_platform' },
    ]);
  });
});

describe('step 5, Dedupe: given the team posts the read model shows, expect fresh, skipped and present', () => {
  const store = new MemoryReadStore();
  const links = classifyPostLinks(
    ['done', 'busy', 'mine', 'elsewhere', 'new'].map(video),
    everywhere,
  ).candidates;
  const [done, busy, mine, elsewhere, fresh] = links;
  const post = (id: string, teamId: string, normalizedLink: string, status: string, jobId: string) => ({
    _id: id,
    id,
    teamId,
    normalizedLink,
    status,
    jobId,
    dataVersion: 1,
  });

  beforeAll(async () => {
    const posts = store.collection(POSTS);
    await posts.insertOne(post('po_done', 't1', done.normalized, 'complete', 'cj_old'));
    await posts.insertOne(post('po_busy', 't1', busy.normalized, 'fetching', 'cj_old'));
    await posts.insertOne(post('po_mine', 't1', mine.normalized, 'fetching', 'cj_this'));
    await posts.insertOne(post('po_other', 't2', elsewhere.normalized, 'complete', 'cj_other'));
  });

  it('a new request: present posts skipped by status, a second occurrence duplicate_in_batch, the rest fresh', async () => {
    const deduped = await new Dedupe(store).run('t1', null, [done, busy, mine, elsewhere, done, fresh]);
    expect(deduped.fresh).toEqual([elsewhere, fresh]);
    expect(deduped.skipped).toEqual([
      { link: done.link, reason: 'already_complete' },
      { link: busy.link, reason: 'already_processing' },
      { link: mine.link, reason: 'already_processing' },
      { link: done.link, reason: 'duplicate_in_batch' },
    ]);
    expect(deduped.present.map((p) => p.id)).toEqual(['po_done', 'po_busy', 'po_mine']);
    expect(deduped.resumed).toBe(0);
  });

  it('a job resumed: its own posts go on to their claims and are counted as resumed', async () => {
    const deduped = await new Dedupe(store).run('t1', 'cj_this', [mine, fresh]);
    expect(deduped.fresh).toEqual([mine, fresh]);
    expect(deduped.skipped).toEqual([]);
    expect(deduped.resumed).toBe(1);
  });
});
