import { bucketOf } from '@analyst/contracts';

/**
 * Relevance has no neutral band in any score version, so its buckets do not depend on the version;
 * this one is passed only because bucketOf asks for one.
 */
const ANY_VERSION = 1;

/**
 * Whether a comment's relevance lands in the off_topic bucket (spam and promotion land there, and
 * talk about something else). Such comments still count in mixes and totals, but they are never
 * notable and never feed a cloud: their words are not the section's opinion. An unscored relevance
 * (NaN) is not off-topic.
 */
export function isOffTopic(relevance: number): boolean {
  return relevance === relevance && bucketOf('relevance', relevance, ANY_VERSION) === 'negative';
}
