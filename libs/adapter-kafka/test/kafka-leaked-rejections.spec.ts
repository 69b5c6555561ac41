import { KafkaJSProtocolError, KafkaJSNonRetriableError } from 'kafkajs';
import { isLeakedRetriableKafkaError } from '../src/kafka-leaked-rejections';

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
