import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionService, type ProjectionStep, type RecordedEvent } from '@analyst/platform';
import { analysisTest } from './analysis-fixture';

/**
 * Holds the service's projection on the first `PostCreated` of one team until released: that team's
 * writes, and every event stored after them, stay unprojected meanwhile.
 */
class NeighbourGate implements ProjectionStep {
  readonly name = 'neighbour-gate';
  readonly collection = 'neighbour_gate';
  readonly eventTypes = ['PostCreated'];
  blockedTeam: string | null = null;
  held: RecordedEvent | null = null;
  release!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  async apply(event: RecordedEvent): Promise<void> {
    if (this.blockedTeam === null || event.metadata.teamId !== this.blockedTeam) return;
    this.held ??= event;
    await this.opened;
  }
}

const gate = new NeighbourGate();

@Injectable()
class GateRegistration implements OnModuleInit {
  constructor(private readonly projections: ProjectionService) {}
  onModuleInit(): void {
    this.projections.registerStep(gate);
  }
}

@Module({ providers: [GateRegistration] })
class NeighbourGateModule {}

/** Whether the promise settles within `ms`: a request that waits for a held event does not. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

describe("A snapshot does not wait for another team's unprojected writes (issue 38)", () => {
  let f: Awaited<ReturnType<typeof analysisTest>>;

  beforeAll(async () => {
    f = await analysisTest({ modules: [NeighbourGateModule] });
  });
  afterAll(async () => {
    gate.release();
    await f.close();
  });

  it("answers a snapshot and its GET while a neighbour's post is held; the list shows it once the projection passes its own write", async () => {
    const own = await f.team();
    const neighbour = await f.team();
    await f.posts(own.teamId, [
      { id: 'pa1', postedAt: '2026-03-01T10:00:00.000Z', comments: [{ s: 9, body: 'love it' }, { s: 2 }] },
    ]);
    await f.projected();

    gate.blockedTeam = neighbour.teamId;
    await f.posts(neighbour.teamId, [
      { id: 'pb1', postedAt: '2026-03-02T10:00:00.000Z', comments: [{ s: 5 }] },
    ]);

    const created = f.post('/analyses', own.key, { selection: { postIds: ['pa1'] } });
    expect(await settlesWithin(created, 10_000)).toBe(true);
    expect(gate.held?.metadata.teamId).toBe(neighbour.teamId);
    const res = await created;
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'ready',
      scope: { postCount: 1, totalComments: 2, matchedComments: 2 },
    });
    const read = await f.get(`/analyses/${res.body.data.id}`, own.key);
    expect([read.status, read.body.data]).toEqual([200, res.body.data]);

    // The list reads the analyses read model, written in log order: it waits for the team's own
    // write, which is stored after the held one.
    const listed = f.get('/analyses?limit=10', own.key);
    expect(await settlesWithin(listed, 1_000)).toBe(false);
    gate.release();
    const rows = (await listed).body.data as { id: string }[];
    expect(rows.map((row) => row.id)).toEqual([res.body.data.id]);
  });
});
