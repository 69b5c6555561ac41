import type { RecordedEvent, SubscribeOptions, Subscription } from '@analyst/eventsourcing';
import { EventStream } from '../src/events/event-stream';
import { LogTail } from '../src/events/log-tail';

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

/** A log with any number of subscriptions the test drives, and a head it sets. */
class DrivenLogs {
  head = 99;
  subscriptions: {
    handler: (events: readonly RecordedEvent[]) => Promise<void>;
    afterPosition: number;
    onError?: (error: unknown) => void;
    closed: boolean;
  }[] = [];

  headPosition(): Promise<number> {
    return Promise.resolve(this.head);
  }

  subscribeToAllPages(
    handler: (events: readonly RecordedEvent[]) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<Subscription> {
    const entry = {
      handler,
      afterPosition: options?.afterPosition ?? -1,
      onError: options?.onError,
      closed: false,
    };
    this.subscriptions.push(entry);
    return Promise.resolve({ close: async () => void (entry.closed = true) });
  }
}

function frameIds(text: string): number[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('id: '))
    .map((frame) => Number(frame.split('\n')[0].slice(4)));
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

describe('streams on the shared tail of the log', () => {
  const options = (onClosed: (s: EventStream) => void = () => undefined) => ({
    teamId: 'tm_a',
    types: null,
    heartbeatMs: 60_000,
    stalledReaderMs: 60_000,
    onClosed,
  });

  it('reads the log once for every stream from now, each handed only the pages after it joined', async () => {
    const log = new DrivenLogs();
    const tail = new LogTail(log);
    const first = new EventStream(options());
    await first.startOnTail(tail, log);
    expect(log.subscriptions.map((s) => s.afterPosition)).toEqual([99]);
    await log.subscriptions[0].handler([settled(100, 'tm_a'), settled(101, 'tm_b')]);
    const second = new EventStream(options());
    await second.startOnTail(tail, log);
    await log.subscriptions[0].handler([settled(102, 'tm_a')]);
    // Still one subscription for both.
    expect(log.subscriptions.length).toBe(1);
    expect(frameIds(first.body.read()!.toString())).toEqual([100, 102]);
    expect(frameIds(second.body.read()!.toString())).toEqual([102]);
    await first.close();
    expect(tail.readerCount).toBe(1);
    await second.close();
    expect(tail.readerCount).toBe(0);
    await tail.close();
    expect(log.subscriptions[0].closed).toBe(true);
  });

  it('moves a stream whose reader is 64 KB behind off the tail, onto its own subscription from where it stood: no gap, no repeat', async () => {
    const log = new DrivenLogs();
    const tail = new LogTail(log);
    const slow = new EventStream(options());
    const quick = new EventStream(options());
    await slow.startOnTail(tail, log);
    await quick.startOnTail(tail, log);
    const quickIds: number[] = [];
    quick.body.setEncoding('utf8');
    quick.body.on('data', (chunk: string) => quickIds.push(...frameIds(chunk)));

    // About 100 KB of the team's frames in one page: both take it from the tail.
    await log.subscriptions[0].handler(Array.from({ length: 100 }, (_, i) => settled(100 + i, 'tm_a')));
    await turns();
    expect([slow.onTail, quick.onTail, tail.readerCount]).toEqual([true, true, 2]);
    // The next page finds the slow reader still 64 KB behind: it moves to its own subscription after 199.
    await log.subscriptions[0].handler([settled(200, 'tm_a')]);
    await turns();
    expect([slow.onTail, quick.onTail, tail.readerCount]).toEqual([false, true, 1]);
    expect(log.subscriptions.map((s) => s.afterPosition)).toEqual([99, 199]);
    let ownHanded = false;
    const own = log.subscriptions[1]
      .handler([settled(200, 'tm_a'), settled(201, 'tm_a')])
      .then(() => (ownHanded = true));
    await turns();
    expect(ownHanded).toBe(false); // waits for the slow reader

    const slowText: string[] = [];
    slow.body.setEncoding('utf8');
    slow.body.on('data', (chunk: string) => slowText.push(chunk));
    await own;
    expect(frameIds(slowText.join(''))).toEqual(Array.from({ length: 102 }, (_, i) => 100 + i));
    await turns();
    expect(quickIds).toEqual(Array.from({ length: 101 }, (_, i) => 100 + i));
    await slow.close();
    await quick.close();
    expect(log.subscriptions[1].closed).toBe(true);
  });

  it('closes the streams on a tail whose subscription failed, and starts a new tail for the next stream', async () => {
    const log = new DrivenLogs();
    const tail = new LogTail(log);
    const closed: EventStream[] = [];
    const stream = new EventStream(options((s) => closed.push(s)));
    await stream.startOnTail(tail, log);
    log.subscriptions[0].onError!(new Error('connection to the event store lost'));
    await turns();
    expect([closed, tail.readerCount, log.subscriptions[0].closed]).toEqual([[stream], 0, true]);

    log.head = 120;
    const next = new EventStream(options());
    await next.startOnTail(tail, log);
    expect(log.subscriptions.map((s) => s.afterPosition)).toEqual([99, 120]);
    await next.close();
    await tail.close();
  });
});
