import type { CreatorMessage, CreatorTopic } from '@analyst/contracts';

export interface TopicSummary {
  title: string;
  description: string | null;
  postCount: number;
}
export interface MessageSummary {
  topic: string;
  stance: string;
  postCount: number;
}

const key = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Creator topics and messages across posts, deduplicated case- and space-insensitively (the first
 * spelling and description seen win), most widespread first.
 */
export function dedupeCreatorContent(
  posts: readonly { topics: readonly CreatorTopic[]; messages: readonly CreatorMessage[] }[],
): {
  topics: TopicSummary[];
  messages: MessageSummary[];
} {
  const topics = new Map<string, TopicSummary>();
  const messages = new Map<string, MessageSummary>();
  for (const post of posts) {
    const seenTopics = new Set<string>();
    for (const topic of post.topics) {
      const k = key(topic.title);
      if (seenTopics.has(k)) continue;
      seenTopics.add(k);
      const existing = topics.get(k);
      if (existing) {
        existing.postCount++;
        existing.description ??= topic.description;
      } else topics.set(k, { title: topic.title.trim(), description: topic.description, postCount: 1 });
    }
    const seenMessages = new Set<string>();
    for (const message of post.messages) {
      const k = `${key(message.topic)}\u0000${key(message.stance)}`;
      if (seenMessages.has(k)) continue;
      seenMessages.add(k);
      const existing = messages.get(k);
      if (existing) existing.postCount++;
      else messages.set(k, { topic: message.topic.trim(), stance: message.stance.trim(), postCount: 1 });
    }
  }
  const order = <T extends { postCount: number }>(xs: T[]): T[] =>
    xs.sort((a, b) => b.postCount - a.postCount);
  return { topics: order([...topics.values()]), messages: order([...messages.values()]) };
}
