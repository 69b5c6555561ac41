import { KafkaJSProtocolError, KafkaJSNonRetriableError } from 'kafkajs';
import { isLeakedRetriableKafkaError, leakedRejectionHandler } from '../src/kafka-leaked-rejections';

describe('leaked kafkajs rejections', () => {
  it('tolerates only retriable kafkajs errors; anything else stays fatal', () => {
    // As kafkajs builds it from the broker's error code 3 (see its protocol/error.js).
    const unknownTopic = new KafkaJSProtocolError({
      type: 'UNKNOWN_TOPIC_OR_PARTITION',
      code: 3,
      retriable: true,
      message: 'This server does not host this topic-partition',
    } as unknown as Error);
    expect(isLeakedRetriableKafkaError(unknownTopic)).toBe(true);
    expect(
      isLeakedRetriableKafkaError(new KafkaJSNonRetriableError('Failed to find group coordinator')),
    ).toBe(false);
    expect(isLeakedRetriableKafkaError(Object.assign(new Error('socket hang up'), { retriable: true }))).toBe(
      false,
    );
    expect(isLeakedRetriableKafkaError('KafkaJS')).toBe(false);
    expect(isLeakedRetriableKafkaError(undefined)).toBe(false);
  });
});

describe('the leaked-rejection handler', () => {
  it("writes through the service's logger: a warning for a retriable kafkajs error, fatal and exit 1 otherwise", () => {
    const calls: [string, object, string | undefined][] = [];
    const sink = {
      warn: (obj: object, msg?: string) => calls.push(['warn', obj, msg]),
      fatal: (obj: object, msg?: string) => calls.push(['fatal', obj, msg]),
    };
    const exits: number[] = [];
    const handle = leakedRejectionHandler(sink, (code) => exits.push(code));

    handle(
      new KafkaJSProtocolError({
        type: 'UNKNOWN_TOPIC_OR_PARTITION',
        code: 3,
        retriable: true,
        message: 'This server does not host this topic-partition',
      } as unknown as Error),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0][0]).toBe('warn');
    expect(exits).toEqual([]);

    handle(new TypeError('boom'));
    expect(calls[1][0]).toBe('fatal');
    expect(calls[1][2]).toBe('unhandled promise rejection');
    expect((calls[1][1] as { err: string }).err).toContain('TypeError: boom');
    expect(exits).toEqual([1]);
  });

  it("without a logger, writes pino's shape on stderr: numeric level 60 for the fatal line", () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      leakedRejectionHandler(undefined, () => undefined)('not an error');
    } finally {
      spy.mockRestore();
    }
    expect(written).toHaveLength(1);
    const line = JSON.parse(written[0]) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 60,

      msg: 'unhandled promise rejection',
      err: 'not an error',
    });
    expect(typeof line.time).toBe('number');
  });
});
