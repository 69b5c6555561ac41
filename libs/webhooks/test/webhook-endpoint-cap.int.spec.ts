import { SqliteEventStore } from '@analyst/adapter-sqlite';
import { CommandRunner, ConcurrencyError, FixedClock, SequentialIdGenerator } from '@analyst/eventsourcing';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_ENDPOINT_SCHEMA_VERSIONS,
  checkUrlShape,
  liveEndpointCount,
  webhookEndpointDecider,
  webhookEndpointsStream,
  webhookNetworkPolicy,
  type UrlCheck,
  type WebhookEndpointCommand,
} from '../src';

const AT = '2026-03-10T12:00:00.000Z';
const shape = checkUrlShape('https://hooks.example.com/a', webhookNetworkPolicy(undefined));
const URL_OK: UrlCheck = shape.ok ? { ok: true, url: shape.url, addresses: ['93.184.215.14'] } : shape;

const register = (endpointId: string): WebhookEndpointCommand => ({
  type: 'RegisterWebhookEndpoint',
  data: { endpointId, teamId: 'tm_1', urlCheck: URL_OK, events: ['post.updated'], secret: 's', at: AT },
});

/**
 * The cap holds under concurrency because every registration of a team appends to the team's one
 * stream with the revision it decided on: the command runner refuses the loser's append, reloads
 * and decides again against the winner's event.
 */
describe('webhook endpoint cap through the command runner', () => {
  let store: SqliteEventStore;
  let runner: CommandRunner;
  beforeEach(() => {
    store = new SqliteEventStore({ filename: ':memory:' });
    runner = new CommandRunner(store, new FixedClock(AT), new SequentialIdGenerator());
  });
  afterEach(() => store.close());

  const run = (command: WebhookEndpointCommand) =>
    runner.run(
      webhookEndpointsStream('tm_1'),
      webhookEndpointDecider,
      command,
      {
        correlationId: 'req_1',
        teamId: 'tm_1',
      },
      { versions: WEBHOOK_ENDPOINT_SCHEMA_VERSIONS },
    );

  it('lets exactly one of five concurrent registrations take the tenth place', async () => {
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS - 1; i++) await run(register(`we_0000000${i}`));
    const append = jest.spyOn(store, 'append');
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => run(register(`we_0000010${i}`))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    // All five decided on nine endpoints and appended: four were refused on the revision, decided again, refused.
    expect(append).toHaveBeenCalledTimes(5);
    const appends = await Promise.allSettled(append.mock.results.map((r) => r.value));
    const conflicts = appends.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(conflicts.map((c) => c.reason)).toEqual(Array(4).fill(expect.any(ConcurrencyError)));
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refusals.map((r) => r.reason.code)).toEqual(Array(4).fill('endpoint_limit_reached'));
    const { state, events } = await runner.load(webhookEndpointsStream('tm_1'), webhookEndpointDecider);
    expect(liveEndpointCount(state)).toBe(MAX_WEBHOOK_ENDPOINTS);
    expect(events.map((e) => e.schemaVersion)).toEqual(Array(MAX_WEBHOOK_ENDPOINTS).fill(1));
  });
});
