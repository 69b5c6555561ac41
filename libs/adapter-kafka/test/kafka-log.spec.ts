import { logLevel, type LogEntry } from 'kafkajs';
import { kafkaLogging } from '../src/kafka-log';

function entry(level: logLevel, message: string, extra: Record<string, unknown> = {}): LogEntry {
  return {
    namespace: 'Connection',
    level,
    label: logLevel[level],
    log: { timestamp: 't', message, ...extra },
  };
}

describe("kafkajs' log lines", () => {
  it("go to the service's logger, warnings and errors, with kafkajs' fields", () => {
    const calls: [string, object, string | undefined][] = [];
    const sink = {
      error: (obj: object, msg?: string) => calls.push(['error', obj, msg]),
      warn: (obj: object, msg?: string) => calls.push(['warn', obj, msg]),
    };
    const { logLevel: level, logCreator } = kafkaLogging(sink);
    expect(level).toBe(logLevel.WARN);
    const log = logCreator(logLevel.WARN);
    log(entry(logLevel.ERROR, 'Connection error', { broker: 'b:9092' }));
    log(entry(logLevel.WARN, 'Rebalancing'));
    log(entry(logLevel.INFO, 'Consumer has joined the group'));
    expect(calls).toEqual([
      ['error', { timestamp: 't', broker: 'b:9092', kafkaNamespace: 'Connection' }, 'Connection error'],
      ['warn', { timestamp: 't', kafkaNamespace: 'Connection' }, 'Rebalancing'],
    ]);
  });

  it('drop the two error responses that are routine: a topic that exists, a heartbeat during a rebalance', () => {
    const calls: string[] = [];
    const sink = { error: (_: object, msg?: string) => calls.push(msg ?? ''), warn: () => undefined };
    const log = kafkaLogging(sink).logCreator(logLevel.WARN);
    log(
      entry(logLevel.ERROR, 'Response CreateTopics(key: 19, version: 3)', { error: 'Topic creation errors' }),
    );
    log(
      entry(logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)', {
        error: 'The group is rebalancing, so a rejoin is needed',
      }),
    );
    log(entry(logLevel.ERROR, 'Response CreateTopics(key: 19, version: 3)', { error: 'Not authorized' }));
    log(entry(logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)', { error: 3 }));
    expect(calls).toEqual([
      'Response CreateTopics(key: 19, version: 3)',
      'Response Heartbeat(key: 12, version: 3)',
    ]);
  });

  it("without a logger, print errors only, in pino's shape with numeric level 50", () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const log = kafkaLogging(undefined).logCreator(logLevel.ERROR);
      log(entry(logLevel.WARN, 'Rebalancing'));
      log(entry(logLevel.ERROR, 'Connection error', { broker: 'b:9092' }));
    } finally {
      spy.mockRestore();
    }
    expect(written).toHaveLength(1);
    const line = JSON.parse(written[0]) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 50,

      broker: 'b:9092',
      kafkaNamespace: 'Connection',
      msg: 'Connection error',
    });
    expect(typeof line.time).toBe('number');
  });
});
