import type { Admin, Kafka } from 'kafkajs';
import { isTopicMetadataError } from './kafka-producer';

export interface TopicSettings {
  partitions: number;
  replicationFactor: number;
  /** `min.insync.replicas` of each created topic; the broker's default when absent. */
  minInsyncReplicas?: number;
}

/**
 * The bus's admin connection and what it is used for: creating the topics the bus touches (each
 * once; concurrent callers share one attempt), telling whether a topic still exists, deleting a
 * consumer group, and the lag round of the metrics (`connected`).
 */
export class TopicAdmin {
  /** Topics created (or being created) by this bus; a failed attempt is forgotten so the next call tries again. */
  private readonly knownTopics = new Map<string, Promise<void>>();
  private admin: Promise<Admin> | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: TopicSettings,
  ) {}

  /** Creates missing topics with the configured partitions; concurrent callers share one attempt. */
  async ensureTopics(topics: string[]): Promise<void> {
    const missing = topics.filter((t) => !this.knownTopics.has(t));
    if (missing.length > 0) {
      const created = this.create(missing);
      for (const topic of missing) this.knownTopics.set(topic, created);
      created.catch(() => {
        for (const topic of missing)
          if (this.knownTopics.get(topic) === created) this.knownTopics.delete(topic);
      });
    }
    await Promise.all(topics.map((t) => this.knownTopics.get(t)));
  }

  /**
   * A send failed on a topic-metadata error: when the topic is really gone (deleted by someone),
   * create it again before the retry; a topic we created ourselves must exist for our messages.
   * Always true: the send is retried either way.
   */
  async recreateIfMissing(topic: string, error: unknown): Promise<boolean> {
    if (isTopicMetadataError(error) && !(await this.topicExists(topic))) {
      this.knownTopics.delete(topic);
      await this.ensureTopics([topic]);
    }
    return true;
  }

  async topicExists(topic: string): Promise<boolean> {
    try {
      return (await (await this.connected()).listTopics()).includes(topic);
    } catch {
      return true; // cannot tell (broker away): assume it exists and let the retries decide
    }
  }

  async deleteGroup(groupId: string): Promise<void> {
    try {
      await (await this.connected()).deleteGroups([groupId]);
    } catch {
      // Housekeeping only: an empty group expires with the broker's offsets retention.
    }
  }

  /** The admin client, connected once and again after a failed connect. */
  connected(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin.connect().then(() => admin);
      this.admin.catch(() => (this.admin = null));
    }
    return this.admin;
  }

  async close(): Promise<void> {
    const admin = this.admin ? await this.admin.catch(() => null) : null;
    await admin?.disconnect();
  }

  private async create(missing: string[]): Promise<void> {
    const admin = await this.connected();
    // Several processes create the same topics at start-up; while the broker is still settling
    // one of them it answers with retriable errors (UNKNOWN_TOPIC_OR_PARTITION), so try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: this.settings.partitions,
            replicationFactor: this.settings.replicationFactor,
            configEntries: this.settings.minInsyncReplicas
              ? [{ name: 'min.insync.replicas', value: String(this.settings.minInsyncReplicas) }]
              : [],
          })),
        });
        // A topic another replica created a moment ago ("already exists" counts as success here)
        // may not serve metadata yet; subscribing then was seen to leak a rejection from kafkajs.
        await this.untilServed(admin, missing);
        return;
      } catch (error) {
        if (!isRetriable(error) || attempt >= 10) throw error;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }

  /** Waits until every topic answers metadata with a leader on each partition (a few tries). */
  private async untilServed(admin: Admin, topics: string[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { topics: described } = await admin.fetchTopicMetadata({ topics });
        if (described.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0)))
          return;
      } catch (error) {
        if (!isRetriable(error) || attempt >= 10) throw error;
      }
      if (attempt >= 10) return; // leaders still electing: the consumers' own retries take it from here
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/** kafkajs marks the errors worth another try `retriable`. */
function isRetriable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'retriable' in error && Boolean(error.retriable);
}
