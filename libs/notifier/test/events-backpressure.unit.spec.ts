import type { RecordedEvent, SubscribeOptions, Subscription } from '@analyst/eventsourcing';
import { EventStream } from '../src/events/event-stream';

const NOW = '2026-03-10T12:00:00.000Z';

function settled(n: number, teamId: string): RecordedEvent {
  return {
    id: `ev_bp_${n}`,
    type: 'JobSettled',
    schemaVersion: 1,
    // A long error message makes each frame about 1 KB.
    data: { status: 'failed', error: { code: 'provider_failed', message: 'x'.repeat(900) }, at: NOW },
    metadata: { correlationId: `c${n}`, causationId: null, teamId, occurredAt: NOW },
    streamId: `contentjob-cj_${n}`,
    revision: 0,
    position: n,
  };
}

/** A log whose subscription the test drives: it hands pages over and sees whether the handler returned. */
class DrivenLog {
  handler: ((events: readonly RecordedEvent[]) => Promise<void>) | null = null;
  options: SubscribeOptions | null = null;
  closed = 0;

  subscribeToAllPages(
    handler: (events: readonly RecordedEvent[]) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<Subscription> {
    this.handler = handler;
    this.options = options ?? null;
    return Promise.resolve({ close: async () => void (this.closed += 1) });
  }
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await new Promise((r) => setImmediate(r));
};

describe('an event stream and a slow reader', () => {
  it('holds the log back while its reader takes nothing, buffering about 64 KB, and goes on as it reads', async () => {
    const log = new DrivenLog();
    const closed: EventStream[] = [];
    const stream = new EventStream({
      teamId: 'tm_a',
      types: null,
      heartbeatMs: 60_000,
      stalledReaderMs: 60_000,
      onClosed: (s) => closed.push(s),
    });
    await stream.start(log, 41);
    expect(log.options?.afterPosition).toBe(41);

    const page = Array.from({ length: 2000 }, (_, i) => settled(42 + i, 'tm_a'));
    let handed = false;
    const handing = log.handler!(page).then(() => (handed = true));
    await turns();
    // About 2 MB of frames were due; the reader took none of them.
    expect(handed).toBe(false);
    expect(stream.body.readableLength).toBeGreaterThanOrEqual(64 * 1024);
    expect(stream.body.readableLength).toBeLessThan(64 * 1024 + 2 * 1024);

    const received: string[] = [];
    stream.body.setEncoding('utf8');
    stream.body.on('data', (chunk: string) => received.push(chunk));
    await handing;
    expect(handed).toBe(true);
    const ids = received
      .join('')
      .split('\n\n')
      .filter((frame) => frame.startsWith('id: '))
      .map((frame) => Number(frame.split('\n')[0].slice(4)));
    expect(ids).toEqual(page.map((e) => e.position));
    expect(closed).toEqual([]);
    await stream.close();
  });

  it('closes a stream whose reader is stuck past stalledReaderMs: the log subscription ends, the handler returns', async () => {
    const log = new DrivenLog();
    const closed: EventStream[] = [];
    const stream = new EventStream({
      teamId: 'tm_a',
      types: null,
      heartbeatMs: 60_000,
      stalledReaderMs: 300,
      onClosed: (s) => closed.push(s),
    });
    await stream.start(log, -1);
    const page = Array.from({ length: 200 }, (_, i) => settled(i, 'tm_a'));
    await log.handler!(page);
    expect(closed).toEqual([stream]);
    expect(stream.isClosed).toBe(true);
    expect(log.closed).toBe(1);
  });

  it('closes when the client goes away (the response destroys the body), once', async () => {
    const log = new DrivenLog();
    const closed: EventStream[] = [];
    const stream = new EventStream({
      teamId: 'tm_a',
      types: null,
      heartbeatMs: 60_000,
      stalledReaderMs: 60_000,
      onClosed: (s) => closed.push(s),
    });
    await stream.start(log, -1);
    stream.body.destroy();
    await turns();
    expect(closed).toEqual([stream]);
    expect(log.closed).toBe(1);
    await stream.close();
    expect([closed.length, log.closed]).toEqual([1, 1]);
  });

  it("skips other teams' events without holding anything for them", async () => {
    const log = new DrivenLog();
    const stream = new EventStream({
      teamId: 'tm_a',
      types: null,
      heartbeatMs: 60_000,
      stalledReaderMs: 60_000,
      onClosed: () => undefined,
    });
    await stream.start(log, -1);
    await log.handler!(Array.from({ length: 2000 }, (_, i) => settled(i, 'tm_b')));
    // Only the retry frame: 2 MB of another team's events held nothing back.
    expect(stream.body.read()?.toString()).toBe('retry: 3000\n\n');
    await stream.close();
  });
});
