import { FixedClock, type RecordedEvent } from '@analyst/platform';
import { commentReadSideProjectors, postAnalysesStepDefinition } from '@analyst/comment-index';
import { ingestTest, LINKS, START, type IngestTest } from './ingest-fixture';

const HOUR = 3_600_000;
const at = (hours: number) => new Date(new Date(START).getTime() + hours * HOUR).toISOString();

/** Every event type the comment read side (analysis' and sampling's team reads) folds. */
const READ_SIDE_TYPES = new Set([
  ...commentReadSideProjectors.flatMap((p) => p.eventTypes),
  ...postAnalysesStepDefinition.eventTypes,
]);

/**
 * CommentReadSide.team(teamId) waits only for the log position of the team's last event (by
 * metadata.teamId) or system event (null). That is exact only if every event a team's read folds
 * carries that team as its metadata.teamId, whoever wrote it: the key's own team, an Enterprise
 * parent acting for a sub-team (`teamId` in the request), a refresh, an account's discovery, the
 * pipeline's reactions, the admin API's team settings.
 */
describe('the team on every event the comment read side folds', () => {
  const clock = new FixedClock(START);
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ clock })));
  afterAll(() => f.close());

  it("is the event's own team, for a sub-team's writes made by its parent's key too", async () => {
    const start = await f.events.headPosition();
    const parent = await f.team('enterprise', { maps: 0, adhoc: 20 });
    const sub = await f.team('scale', { parentTeamId: parent, maps: 0, adhoc: 20 });
    const { key } = await f.key(parent);

    const own = await f.post('/content/posts/add', key, { links: [LINKS.x(2)] });
    await f.settle(own.body.data.id, key);
    const forSub = await f.post('/content/posts/add', key, {
      links: [LINKS.reddit('c3abcdefgh')],
      teamId: sub,
      tags: ['launch'],
      collections: [{ name: 'Launch' }],
    });
    expect(forSub.status).toBe(202);
    await f.settle(`${forSub.body.data.id}?teamId=${sub}`, key);
    // The same post again with a tag more: tagged, not added twice.
    const again = await f.post('/content/posts/add', key, {
      links: [LINKS.reddit('c3abcdefgh')],
      teamId: sub,
      tags: ['again'],
    });
    expect(again.status).toBe(202);
    await f.settle(`${again.body.data.id}?teamId=${sub}`, key);
    const account = await f.post('/content/accounts/add', key, {
      account: { url: 'https://www.tiktok.com/@fitjoe' },
      filters: { limit: 2 },
      teamId: sub,
    });
    expect(account.status).toBe(202);
    await f.settle(`${account.body.data.id}?teamId=${sub}`, key);
    await f.idle(sub);
    clock.set(at(25)); // past the scale plan's daily included refresh
    const refresh = await f.post('/content/posts/refresh', key, {
      postIds: [forSub.body.data.accepted[0].postId],
      teamId: sub,
    });
    expect(refresh.status).toBe(202);
    expect(refresh.body.data.accepted).toHaveLength(1);
    await f.settle(`${refresh.body.data.id}?teamId=${sub}`, key);
    await f.idle(sub);
    const settings = await f.t.admin('PUT', `/admin/v1/teams/${sub}/analysis-settings`, {
      scoreVersion: 2,
      engagementWeight: 0.5,
    });
    expect(settings.status).toBe(200);

    const written: RecordedEvent[] = [];
    for await (const page of f.events.readAll(start)) written.push(...page);
    const teamOfPost = new Map<string, string>();
    const mismatched: string[] = [];
    const seen = new Map<string, Set<string>>(); // team -> the read side's event types seen for it
    for (const event of written) {
      if (!READ_SIDE_TYPES.has(event.type)) continue;
      const data = event.data as { teamId?: string; postId?: string };
      if (event.type === 'PostCreated') teamOfPost.set(data.postId!, data.teamId!);
      const team = data.teamId ?? (data.postId ? teamOfPost.get(data.postId) : undefined);
      if (team === undefined) {
        mismatched.push(`${event.type}@${event.position}: no team found`);
        continue;
      }
      if (event.metadata.teamId !== team)
        mismatched.push(`${event.type}@${event.position}: team ${team}, metadata ${event.metadata.teamId}`);
      seen.set(team, (seen.get(team) ?? new Set()).add(event.type));
    }
    expect(mismatched).toEqual([]);
    // The flows above wrote each kind of event the read side folds, the sub-team's included.
    expect([...(seen.get(sub) ?? [])].sort()).toEqual([
      'CollectionCreated',
      'CommentsFetched',
      'CommentsScored',
      'PostCreated',
      'PostFetched',
      'PostRefreshRequested',
      'PostScored',
      'PostTagged',
      'TeamAnalysisSettingsChanged',
      'TeamCreated',
    ]);
    expect(seen.get(parent)).toEqual(
      new Set([
        'TeamCreated',
        'PostCreated',
        'PostFetched',
        'CommentsFetched',
        'CommentsScored',
        'PostScored',
      ]),
    );
  });
});
