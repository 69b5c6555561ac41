import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';

export interface ResilientProducerOptions {
  /** Attempts per send (each on a fresh producer after a failure). Default 6. */
  attempts?: number;
  /** First pause between attempts; doubles up to `maxBackoffMs`. Default 200 ms. */
  backoffMs?: number;
  maxBackoffMs?: number;
  onRecreate?: (error: unknown) => void;
}

export interface SendOptions {
  /** Stop retrying at this time (epoch ms), whatever `attempts` says; a request has no use for a late send. */
  deadline?: number;
  /** Called after a failed attempt; returning false ends the retries with that error. */
  retryIf?: (error: unknown) => boolean | Promise<boolean>;
}

/** Metadata errors that mean "this topic or partition is not where the client thinks". */
const TOPIC_ERRORS = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
]);

/** What isTopicMetadataError reads of an error, a cause or a collected error: any of it may be absent. */
type ErrorFields = { type?: unknown; name?: unknown; cause?: unknown; errors?: unknown };

/** True when the error (or any cause, or any error a kafkajs retrier collected) is a topic/partition metadata error. */
export function isTopicMetadataError(error: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    const { type, name, cause, errors }: ErrorFields = e;
    if ((typeof type === 'string' && TOPIC_ERRORS.has(type)) || name === 'KafkaJSTopicMetadataNotLoaded')
      return true;
    return walk(cause) || (Array.isArray(errors) && errors.some(walk));
  };
  return walk(error);
}

/**
 * One kafkajs producer, replaced by a fresh one after any failed send, with bounded retries.
 *
 * Why replace rather than retry on the same producer: kafkajs keeps every topic it ever sent to in
 * its metadata target set and refreshes them all together, so once one of them is deleted every
 * later refresh fails with UNKNOWN_TOPIC_OR_PARTITION and the producer cannot send anywhere again
 * ("This server does not host this topic-partition" forever). A new producer starts with an empty
 * target set; after a broker outage it also starts from fresh connections.
 */
export class ResilientProducer {
  private current: Promise<Producer> | null = null;
  private closed = false;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: ResilientProducerOptions = {},
  ) {}

  async send(topic: string, messages: Message[], options: SendOptions = {}): Promise<void> {
    const attempts = this.options.attempts ?? 6;
    let backoff = this.options.backoffMs ?? 200;
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw new Error('producer closed');
      const pending = this.get();
      try {
        await (await pending).send({ topic, messages, acks: -1 });
        return;
      } catch (error) {
        if (this.closed) throw error;
        this.discard(pending, error);
        const outOfTime = options.deadline !== undefined && Date.now() + backoff >= options.deadline;
        if (attempt >= attempts || outOfTime || (options.retryIf && !(await options.retryIf(error))))
          throw error;
      }
      await new Promise((r) => setTimeout(r, backoff));
      backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 3_000);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const producer = this.current ? await this.current.catch(() => null) : null;
    this.current = null;
    await producer?.disconnect().catch(() => undefined);
  }

  private get(): Promise<Producer> {
    if (!this.current) {
      // Murmur2 over the key, as Java clients hash; one request in flight so retries cannot reorder a key.
      // Few retries inside kafkajs: a failure comes back to `send`, which retries on a fresh producer.
      const producer = this.kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
        maxInFlightRequests: 1,
        retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2_000 },
      });
      const connected = producer.connect().then(() => producer);
      this.current = connected;
      connected.catch(() => {
        if (this.current === connected) this.current = null;
      });
    }
    return this.current;
  }

  /** Drops the producer a failed send used, unless a concurrent failure already replaced it. */
  private discard(failed: Promise<Producer>, error: unknown): void {
    if (this.current !== failed) return;
    this.current = null;
    this.options.onRecreate?.(error);
    failed.then((p) => p.disconnect()).catch(() => undefined);
  }
}
