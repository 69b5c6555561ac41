import { randomUUID } from 'node:crypto';
import type { BusMessage, OutgoingMessage } from '@analyst/eventsourcing';
import { eventually, unique } from '@analyst/testing';
import { KafkaBus } from '../src/kafka-bus';
import type { KafkaSpan, KafkaTracing } from '../src/kafka-hooks';

const brokers = process.env.KAFKA_BROKERS?.split(',')
  .map((b) => b.trim())
  .filter(Boolean);

/** Records every hook call; the producer hook puts a header on the record that the consumer must see. */
function recordingTracing() {
  const calls: string[] = [];
  const seenHeaders: (string | undefined)[] = [];
  const tracing: KafkaTracing = {
    startProducer: (operation: string, topic: string, message: OutgoingMessage) => {
      calls.push(`start ${operation} ${topic} ${message.type}`);
      return {
        headers: { 'x-test-trace': `${operation}:${message.id}` },
        end: (error?: unknown) =>
          calls.push(`end ${operation} ${topic}${error === undefined ? '' : ' failed'}`),
      };
    },
    consume: <T>(group: string, message: BusMessage, handler: (span: KafkaSpan | null) => Promise<T>) => {
      calls.push(`consume ${group} ${message.topic}`);
      seenHeaders.push(message.headers?.['x-test-trace']);
      return handler({ setAttribute: (key: string) => calls.push(`attribute ${key}`) });
    },
  };
  return { tracing, calls, seenHeaders };
}

if (brokers && brokers.length > 0) {
  describe(`KafkaBus tracing hooks (${brokers.join(',')})`, () => {
    it('opens a producer trace per published message and request, and runs every handler through consume', async () => {
      const namespace = unique('trace.');
      const { tracing, calls, seenHeaders } = recordingTracing();
      const bus = new KafkaBus({ brokers, namespace, partitions: 1, retryDelayMs: 20, tracing });
      try {
        const got: BusMessage[] = [];
        await bus.subscribe('g', ['events'], async (m) => void got.push(m));
        await bus.serve('commands', 'server', async () => {
          throw new Error('refused');
        });
        const id = randomUUID();
        await bus.publish('events', [{ id, key: 'k', type: 'Happened', payload: {} }]);
        await eventually(() => got.length === 1, 30_000);
        expect(seenHeaders).toEqual([`publish:${id}`]);
        // The consumer may take the message before the producer's acknowledgement ends its span.
        expect(calls[0]).toBe('start publish events Happened');
        expect([...calls].sort()).toEqual([
          'consume g events',
          'end publish events',
          'start publish events Happened',
        ]);

        const requestId = randomUUID();
        await expect(
          bus.request('commands', { id: requestId, key: 'k', type: 'Do', payload: {} }, 30_000),
        ).rejects.toThrow('refused');
        expect(seenHeaders).toEqual([`publish:${id}`, `request:${requestId}`]);
        expect(calls.slice(3)).toEqual([
          'start request commands Do',
          'consume server commands',
          'attribute analyst.request.failed',
          'end request commands failed',
        ]);
      } finally {
        await bus.close();
      }
    }, 90_000);
  });
} else {
  describe('KafkaBus tracing hooks', () => {
    it.skip('skipped: no KAFKA_BROKERS (start deploy/local/start.sh or run npm run test:integration)', () =>
      undefined);
  });
}
