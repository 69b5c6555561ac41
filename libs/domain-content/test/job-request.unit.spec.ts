import {
  accountJobRequest,
  applyAccountFilters,
  postsJobRequest,
  refreshJobRequest,
  type JobBasics,
} from '@analyst/domain-content';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const basics: JobBasics = {
  jobId: 'cj_1',
  teamId: 'tm_1',
  addedBy: { id: 'ak_1', name: 'k' },
  now: NOW,
  options: { tags: ['a'], source: 'auto', fullRead: false, commentLimit: 50, perPost: 1 },
};
const shared = {
  jobId: 'cj_1',
  teamId: 'tm_1',
  createdAt: '2026-03-10T12:00:00.000Z',
  expiresAt: '2026-04-09T12:00:00.000Z',
  credits: { source: 'auto', perPost: 1 },
  capture: { fullRead: false, commentLimit: 50 },
  addedBy: { id: 'ak_1', name: 'k' },
};

describe('job requests', () => {
  it('a posts job carries its links and fingerprint, and no account fields', () => {
    const job = postsJobRequest(basics, { fingerprint: 'fp', collections: [], links: ['l1', 'l2'] });
    expect(job).toEqual({
      ...shared,
      kind: 'posts',
      fingerprint: 'fp',
      collections: [],
      tags: ['a'],
      requested: 2,
      links: ['l1', 'l2'],
    });
  });

  it('an account job asks for its filters limit', () => {
    const filters = applyAccountFilters({ limit: 7 }, NOW);
    const account = { url: 'https://x.com/a', platform: 'x' as const };
    const job = accountJobRequest(basics, {
      fingerprint: 'fp',
      collections: [],
      account,
      dryRun: true,
      filters,
    });
    expect(job).toEqual({
      ...shared,
      kind: 'account',
      fingerprint: 'fp',
      collections: [],
      tags: ['a'],
      requested: 7,
      account,
      dryRun: true,
      filters,
    });
  });

  it('a refresh job has no fingerprint, collections or tags', () => {
    const refreshPosts = [{ postId: 'po_1', link: 'l1' }];
    expect(refreshJobRequest(basics, { requested: 3, refreshPosts })).toEqual({
      ...shared,
      kind: 'refresh',
      fingerprint: null,
      collections: [],
      tags: [],
      requested: 3,
      refreshPosts,
    });
  });
});
