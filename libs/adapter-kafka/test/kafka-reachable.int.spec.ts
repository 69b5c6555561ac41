import { createServer } from 'node:net';
import { DependencyUnavailableError } from '@analyst/eventsourcing';
import { unique } from '@analyst/testing';
import { KafkaBus } from '../src/kafka-bus';

const brokers = process.env.KAFKA_BROKERS?.split(',')
  .map((b) => b.trim())
  .filter(Boolean);

/** kafkajs logs each refused connection; these tests expect them. */
const SILENT = { warn: () => undefined, error: () => undefined };

/** A port nobody listens on right now (the OS picks it, then it is closed again). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

describe('KafkaBus.checkReachable: whether a request could be sent and answered now', () => {
  it('no broker listening: DependencyUnavailableError naming the message broker, from the refused connection, not the timer', async () => {
    const bus = new KafkaBus({ brokers: [`127.0.0.1:${await freePort()}`], logger: SILENT });
    try {
      const error = await bus.checkReachable(5_000).catch((e: unknown) => e);
      expect({
        type: (error as Error).constructor,
        dependency: (error as DependencyUnavailableError).dependency,
        refused: (error as Error).message.includes('ECONNREFUSED'),
      }).toEqual({ type: DependencyUnavailableError, dependency: 'message broker', refused: true });
    } finally {
      await bus.close();
    }
  });

  (brokers?.length ? it : it.skip)(
    'a live broker: resolves, and the reply group has joined (it reports its health as consumer:replies)',
    async () => {
      const checks = new Map<string, () => { ready: boolean }>();
      const bus = new KafkaBus({
        brokers: brokers!,
        namespace: `${unique('reach')}.`,
        logger: SILENT,
        health: { register: (name, check) => void checks.set(name, check), unregister: () => undefined },
      });
      try {
        await bus.checkReachable(30_000);
        await bus.checkReachable(30_000);
        expect({ groups: [...checks.keys()], ready: checks.get('consumer:replies')?.().ready }).toEqual({
          groups: ['consumer:replies'],
          ready: true,
        });
      } finally {
        await bus.close();
      }
    },
  );
});
