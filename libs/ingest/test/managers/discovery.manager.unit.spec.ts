import type { AccountQuery, ContentProvider, DiscoveredPost } from '@analyst/contracts';
import type { ContentJobOpened } from '@analyst/domain-content';
import { FixedClock } from '@analyst/platform';
import { delivered, recorded } from '@analyst/testing';
import { DiscoveryManager } from '../../src/add-account/discovery.manager';
import type { Dedupe } from '../../src/steps/dedupe';
import type { FundCheck } from '../../src/steps/fund-check';
import type { ReserveAndCreate } from '../../src/steps/reserve-and-create';
import { TeamQueue } from '../../src/request/team-queue';
import { DEFAULT_INGEST_OPTIONS } from '../../src/ingest.tokens';
import { NO_BUS, RecordingRunner } from './recording-ports';
import { ContentJobCommands } from '../../src/commands/content-job-commands';

const NOW = '2026-03-10T12:05:00.000Z';
const CREATED = '2026-03-10T12:00:00.000Z';
const at = { id: 'ev_opened', streamId: 'contentjob-j1', correlationId: 'corr-7', teamId: 'team-1' };
/** Discovery reads the job from its stream; of the event it needs the kind, job id and team id. */
const opened = (kind: 'account' | 'posts') =>
  ({
    type: 'ContentJobOpened',
    data: { kind, jobId: 'j1', teamId: 'team-1' },
  }) as unknown as ContentJobOpened;
const filters = {
  since: null,
  until: '2026-03-10T00:00:00.000Z',
  limit: 2,
  keywords: null,
  minViews: 100,
  minLikes: null,
  postType: null,
};
const discovering = {
  status: 'discovering',
  kind: 'account',
  jobId: 'j1',
  teamId: 'team-1',
  createdAt: CREATED,
  account: { url: 'https://www.youtube.com/@maker', platform: 'youtube' },
  filters,
};
const found = (link: string, views: number): DiscoveredPost => ({
  link,
  postedAt: '2026-03-09T10:00:00.000Z',
  postType: 'video',
  caption: 'ignored',
  engagement: { views, likes: 3 },
});

class RecordingProvider {
  readonly asked: { url: string; query: AccountQuery }[] = [];
  answer: () => Promise<DiscoveredPost[]> = async () => [
    found('https://youtu.be/a1', 500),
    found('https://youtu.be/a2', 20),
    found('https://youtu.be/a3', 900),
    found('https://youtu.be/a4', 700),
  ];
  discoverAccount(url: string, query: AccountQuery): Promise<DiscoveredPost[]> {
    this.asked.push({ url, query });
    return this.answer();
  }
}

/** The add steps are reached only once a discovery leaves the job open; these cases stop before. */
function notExpected<T extends object>(step: string): T {
  return new Proxy({} as T, {
    get: (_t, name) => {
      throw new Error(`${step}.${String(name)} was not expected`);
    },
  });
}

describe('DiscoveryManager: given ContentJobOpened of an account job, expect the discovery command', () => {
  let runner: RecordingRunner;
  let provider: RecordingProvider;
  const manager = () =>
    new DiscoveryManager(
      NO_BUS,
      provider as unknown as ContentProvider,
      new FixedClock(NOW),
      { ...DEFAULT_INGEST_OPTIONS, discoveryBackoffMs: [] },
      new ContentJobCommands(runner.asRunner()),
      notExpected<Dedupe>('dedupe'),
      notExpected<FundCheck>('fundCheck'),
      notExpected<ReserveAndCreate>('reserveAndCreate'),
      new TeamQueue(),
    );
  beforeEach(() => {
    runner = new RecordingRunner();
    provider = new RecordingProvider();
    runner.states.set('contentjob-j1', discovering);
    runner.after.set('contentjob-j1', { ...discovering, status: 'completed' });
  });

  it('a discovering job → ask the provider within the recorded window, then RecordDiscovery of the narrowed posts', async () => {
    await manager().handle(delivered(recorded(opened('account'), at)));
    expect(provider.asked).toEqual([
      { url: 'https://www.youtube.com/@maker', query: { until: '2026-03-10T00:00:00.000Z', limit: 2 } },
    ]);
    const kept = (link: string, views: number) => ({
      link,
      postedAt: '2026-03-09T10:00:00.000Z',
      postType: 'video',
      engagement: { views, likes: 3 },
    });
    expect(runner.runs).toEqual([
      {
        streamId: 'contentjob-j1',
        command: {
          type: 'RecordDiscovery',
          data: { discovered: [kept('https://youtu.be/a1', 500), kept('https://youtu.be/a3', 900)], at: NOW },
        },
        context: { correlationId: 'corr-7', causationId: 'ev_opened', teamId: 'team-1' },
      },
    ]);
  });

  it('a provider that cannot be reached → FailJob provider_unavailable, nothing charged', async () => {
    provider.answer = async () => {
      throw new Error('timeout');
    };
    await manager().handle(delivered(recorded(opened('account'), at)));
    expect(runner.runs.map((r) => r.command)).toEqual([
      {
        type: 'FailJob',
        data: {
          error: {
            code: 'provider_unavailable',
            message: "the account's platform could not be reached after 0 retries; nothing was charged",
          },
          at: NOW,
        },
      },
    ]);
  });

  it('a redelivered ContentJobOpened once the job left discovering → no provider call, no command', async () => {
    runner.states.set('contentjob-j1', { ...discovering, status: 'syncing' });
    await manager().handle(delivered(recorded(opened('account'), at)));
    expect(provider.asked).toEqual([]);
    expect(runner.runs).toEqual([]);
  });

  it('a job of links (not an account) or another job event → nothing', async () => {
    await manager().handle(delivered(recorded(opened('posts'), at)));
    await manager().handle(delivered(recorded({ type: 'ContentJobQueued', data: { jobId: 'j1' } }, at)));
    expect(provider.asked).toEqual([]);
    expect(runner.runs).toEqual([]);
  });
});
