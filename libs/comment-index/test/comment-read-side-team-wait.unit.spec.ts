import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HealthRegistry,
  MemoryReadStore,
  ProjectionService,
  ReadStoreCheckpointStore,
  SqliteEventStore,
  type AnalystConfig,
  type ProjectionStep,
  type RecordedEvent,
} from '@analyst/platform';
import { ContentLogWriter } from '@analyst/testing';
import { CommentReadSide, type TeamIndex } from '../src';
import { comment, scoredContent } from './scored-content';

/** A projection step that holds the projection on the first `PostCreated` of one team until released. */
class TeamGate implements ProjectionStep {
  readonly name = 'team-gate';
  readonly collection = 'team_gate';
  readonly eventTypes = ['PostCreated'];
  held: RecordedEvent | null = null;
  release!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly blockedTeam: string) {}

  async apply(event: RecordedEvent): Promise<void> {
    if (event.metadata.teamId !== this.blockedTeam) return;
    this.held ??= event;
    await this.opened;
  }
}

/** Whether the promise settles within `ms`: a read that waits for a held event does not. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

describe("CommentReadSide.team: a team's read waits for its own writes, not another team's", () => {
  let dir: string;
  let events: SqliteEventStore;
  let projections: ProjectionService;
  let readSide: CommentReadSide;
  let gate: TeamGate;
  let log: ContentLogWriter;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-team-wait-'));
    events = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
    const store = new MemoryReadStore();
    projections = new ProjectionService(
      events,
      store,
      'rebuild',
      new ReadStoreCheckpointStore(store),
      { ANALYST_SERVICE: 'analysis' } as AnalystConfig,
      new HealthRegistry(),
    );
    gate = new TeamGate('tm_b');
    projections.registerStep(gate);
    readSide = new CommentReadSide(projections, store, events, { cacheMb: 16, materializePosts: false });
    log = new ContentLogWriter(events);
    for (const teamId of ['tm_a', 'tm_b']) await log.teamCreated(teamId);
    await addPost('tm_a', 'pa1');
    await projections.start();
  });

  afterEach(async () => {
    gate.release();
    await projections.stop();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function addPost(teamId: string, postId: string): Promise<void> {
    const content = scoredContent([comment(1, `first comment on ${postId}`, '2026-10-01T00:00:00Z', 3)]);
    await log.postCreated(teamId, postId, `https://www.youtube.com/watch?v=${postId}`, 'youtube');
    await log.fetched(teamId, postId, 1, content);
    await log.scored(teamId, postId, 1, content);
  }

  /** The team's posts as its read sees them: id and the data version it reads (null: none scored). */
  const postsOf = (team: TeamIndex) => team.posts.map((p) => `${p.id}@${p.version?.dataVersion ?? null}`);
  const postIds = async (teamId: string) => postsOf(await readSide.team(teamId));

  it("answers team A at once while team B's writes are held unprojected, with A's writes made before them", async () => {
    expect(await postIds('tm_a')).toEqual(['pa1@1']);
    await addPost('tm_a', 'pa2'); // before B's held write: A's read must see it
    await addPost('tm_b', 'pb1'); // the projection stops on its PostCreated
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gate.held?.data).toMatchObject({ postId: 'pb1' });

    expect(await postIds('tm_a')).toEqual(['pa1@1', 'pa2@1']);
    const teamB = readSide.team('tm_b');
    const whole = readSide.current();
    expect(await settlesWithin(teamB, 300)).toBe(false);
    expect(await settlesWithin(whole, 0)).toBe(false); // the whole-log wait A's read used to make

    gate.release();
    expect(postsOf(await teamB)).toEqual(['pb1@1']);
    await whole;
  });

  it('makes every team wait for a system event (teamId null) written after the held write', async () => {
    await addPost('tm_b', 'pb1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gate.held).not.toBeNull();
    await events.append(
      'apikey-k1',
      [
        {
          id: 'ev-system-1',
          type: 'ApiKeyRevoked',
          schemaVersion: 1,
          data: { keyId: 'k1' },
          metadata: { correlationId: 'admin', causationId: null, teamId: null, occurredAt: log.at() },
        },
      ],
      'no_stream',
    );
    const teamA = readSide.team('tm_a');
    expect(await settlesWithin(teamA, 300)).toBe(false);
    gate.release();
    expect(postsOf(await teamA)).toEqual(['pa1@1']);
  });
});
