import { DependencyUnavailableError } from '@analyst/eventsourcing';
import { Kafka, type Admin, type KafkaConfig } from 'kafkajs';

/**
 * `checkReachable`, for request paths before they write anything: a broker answers a metadata
 * request and this instance's reply consumer is in its group, within the caller's timeout;
 * otherwise DependencyUnavailableError. Concurrent callers share a probe younger than their
 * timeout. kafkajs' own retries would take seconds to give up on a stopped broker, so the probe's
 * client has none.
 */
export class BrokerProbe {
  /** The bus's brokers without kafkajs' retries: a refused connection fails at once. */
  private readonly kafka: Kafka;
  private admin: Promise<Admin> | null = null;
  private probing: { done: Promise<void>; startedAt: number } | null = null;

  constructor(
    client: KafkaConfig,
    private readonly replyConsumerReady: () => Promise<unknown>,
  ) {
    // A request to a broker that is still starting may never be answered: the probe gives up after 2 s.
    this.kafka = new Kafka({ ...client, retry: { retries: 0 }, requestTimeout: 2_000 });
  }

  async check(timeoutMs: number): Promise<void> {
    // A probe older than this caller's patience may be stuck on a broker that was restarting: start afresh.
    if (!this.probing || Date.now() - this.probing.startedAt >= timeoutMs) {
      const probing = {
        done: this.probe().finally(() => {
          if (this.probing === probing) this.probing = null;
        }),
        startedAt: Date.now(),
      };
      this.probing = probing;
    }
    const probe = this.probing.done;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DependencyUnavailableError('message broker', `no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([probe, late]);
    } catch (error) {
      if (error instanceof DependencyUnavailableError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new DependencyUnavailableError('message broker', reason, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Forgets the probe's admin; it disconnects once its connect settles, which nobody waits for. */
  dropAdmin(): void {
    const admin = this.admin;
    this.admin = null;
    admin?.then((a) => a.disconnect()).catch(() => undefined);
  }

  private async probe(): Promise<void> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })();
    try {
      await (await this.admin).describeCluster();
    } catch (error) {
      // A fresh admin (and connection) for the next probe, as after a broker restart.
      this.dropAdmin();
      throw error;
    }
    await this.replyConsumerReady();
  }
}
