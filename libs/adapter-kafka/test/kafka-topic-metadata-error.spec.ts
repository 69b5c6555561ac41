import { KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { isTopicMetadataError } from '../src/kafka-producer';

/** A broker's error response as kafkajs builds it (see its protocol/error.js). */
function protocolError(type: string, code: number): KafkaJSProtocolError {
  return new KafkaJSProtocolError({ type, code, retriable: true, message: type } as unknown as Error);
}

describe('isTopicMetadataError: given a failed send, expect whether the topic is not where the client thinks', () => {
  it('a topic or partition error from the broker, on its own, as a cause or among the retries', () => {
    const unknownTopic = protocolError('UNKNOWN_TOPIC_OR_PARTITION', 3);
    expect(isTopicMetadataError(unknownTopic)).toBe(true);
    expect(isTopicMetadataError(protocolError('LEADER_NOT_AVAILABLE', 5))).toBe(true);
    expect(isTopicMetadataError(protocolError('NOT_LEADER_FOR_PARTITION', 6))).toBe(true);
    expect(
      isTopicMetadataError(
        new KafkaJSNumberOfRetriesExceeded(unknownTopic, { retryCount: 5, retryTime: 3_000 }),
      ),
    ).toBe(true);
    expect(isTopicMetadataError({ errors: [new Error('timeout'), unknownTopic] })).toBe(true);
    expect(
      isTopicMetadataError(Object.assign(new Error('x'), { name: 'KafkaJSTopicMetadataNotLoaded' })),
    ).toBe(true);
  });

  it('anything else: another broker error, a plain error, a non-object, a cycle of causes', () => {
    expect(isTopicMetadataError(protocolError('REQUEST_TIMED_OUT', 7))).toBe(false);
    expect(isTopicMetadataError(new Error('UNKNOWN_TOPIC_OR_PARTITION'))).toBe(false);
    expect(isTopicMetadataError({ type: 3 })).toBe(false);
    expect(isTopicMetadataError('UNKNOWN_TOPIC_OR_PARTITION')).toBe(false);
    expect(isTopicMetadataError(undefined)).toBe(false);
    const looped: { cause?: unknown } = {};
    looped.cause = { cause: looped };
    expect(isTopicMetadataError(looped)).toBe(false);
  });
});
