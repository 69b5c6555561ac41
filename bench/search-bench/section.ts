/**
 * The shape of the paraphrase bench's data (`sections/`): comment sections as they look under a
 * post, each with the queries an analyst would type and the comments that mean them.
 */

/** The kinds of post the sections come from; every domain has sections in both splits. */
export type BenchDomain =
  | 'products'
  | 'food'
  | 'games'
  | 'music'
  | 'politics-news'
  | 'customer-service'
  | 'scams'
  | 'travel'
  | 'fitness-sports'
  | 'movies-tv';

/** `validation` chooses (thresholds, defaults); `test` only reports. */
export type BenchSplit = 'validation' | 'test';

export interface BenchQuery {
  /** Names the query within its section (for `shared` labels). */
  id: string;
  /** As an analyst types it. */
  text: string;
  /** Comments that mean the query without sharing a content word (stem) with it. */
  comments: readonly string[];
}

export interface BenchSection {
  id: string;
  domain: BenchDomain;
  split: BenchSplit;
  /** The post's title or caption the comments sit under. */
  post: string;
  queries: readonly BenchQuery[];
  /** Comments that mean two or more of the section's queries (ids), relevant to each. */
  shared: readonly { queries: readonly string[]; text: string }[];
  /** Comments that mean none of the queries: praise, jokes, questions, off-topic. */
  unrelated: readonly string[];
  /** Comments that share a word with one of the queries but not its meaning. */
  nearMisses: readonly string[];
}
