import type { EachBatchPayload, IHeaders } from 'kafkajs';
import type { BusMessage } from '@analyst/eventsourcing';
import type { KafkaBusOptions } from './kafka-bus-options';
import { decode, headerValue } from './kafka-codec';
import type { KafkaNamespace } from './kafka-namespace';

/** A record's headers as strings, the transport's own included (serve needs reply-to and correlation-id). */
export type RawHeaders = Record<string, string | undefined>;

/** Receives a decoded message plus the raw record headers. */
export type RecordHandler = (message: BusMessage, raw: { headers: RawHeaders }) => Promise<void>;

/**
 * Hands each partition's batch to a subscription's handler, message by message, and resolves an
 * offset (committed later) only once its handler resolved. A failing handler's partition is paused
 * and fetched again from that message after a backoff (the same at-least-once, in-order behaviour
 * as the in-process bus), while the other partitions go on; the uncommitted offset hands the
 * message to the next owner of the partition if the consumer stops or the group rebalances meanwhile.
 */
export class BatchDelivery {
  /** Next retry delay of each partition whose handler failed last time, by subscription, topic and partition. */
  private readonly retryDelays = new Map<string, number>();

  constructor(
    private readonly options: Pick<KafkaBusOptions, 'retryDelayMs' | 'maxRetryDelayMs' | 'onHandlerError'>,
    private readonly namespace: KafkaNamespace,
  ) {}

  async deliver(
    payload: EachBatchPayload,
    live: () => boolean,
    handler: RecordHandler,
    subscription: string,
  ): Promise<void> {
    const { batch } = payload;
    const partitionKey = `${subscription}|${batch.topic}|${batch.partition}`;
    for (const record of batch.messages) {
      if (!live()) return; // unresolved offsets stay uncommitted: the next owner starts here
      let message: BusMessage | null = null;
      try {
        message = decode(this.namespace.unscoped(batch.topic), record);
      } catch (error) {
        // A record that is not ours (or not JSON) can never succeed; report it and move on.
        this.options.onHandlerError?.(error, null);
      }
      if (message) {
        try {
          await handler(message, { headers: rawHeaders(record.headers) });
          this.retryDelays.delete(partitionKey);
        } catch (error) {
          this.options.onHandlerError?.(error, message);
          this.retryLater(partitionKey, payload);
          return;
        }
      }
      payload.resolveOffset(record.offset);
      await payload.commitOffsetsIfNecessary();
      await payload.heartbeat();
    }
  }

  /**
   * A failed handler's partition is paused and resumed after a backoff (doubling per failure in a
   * row), then fetched again from the failed message, which is not resolved: the retry keeps the
   * partition's order. Retrying in place instead would hold the whole batch fetch, and kafkajs
   * fetches again only once every partition's batch is done, so one failing message would stall
   * every other partition of the subscription.
   */
  private retryLater(partitionKey: string, payload: EachBatchPayload): void {
    const delay = this.retryDelays.get(partitionKey) ?? this.options.retryDelayMs ?? 100;
    this.retryDelays.set(partitionKey, Math.min(delay * 2, this.options.maxRetryDelayMs ?? 5_000));
    const resume = payload.pause();
    setTimeout(resume, delay).unref();
  }
}

function rawHeaders(headers: IHeaders | undefined): RawHeaders {
  const out: RawHeaders = {};
  for (const name of Object.keys(headers ?? {})) out[name] = headerValue(headers, name);
  return out;
}
