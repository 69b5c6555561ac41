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
