import type {
  CreatorMessage,
  CreatorTopic,
  Platform,
  PostType,
  AddedVia,
  PostStatus,
} from '@analyst/contracts';
import type { JobOutcome } from '@analyst/domain-content';

/**
 * A post as the `posts` read model holds it (`_id` = post id). Fields named by the spec keep its
 * names; `scores` and `sentimentMix` stay null here: the analysis service fills its own rollups from
 * the scored comments.
 */
export interface PostDoc {
  _id: string;
  id: string;
  teamId: string;
  platform: Platform;
  link: string;
  normalizedLink: string;
  creator: { username: string; name: string } | null;
  title: string | null;
  caption: string | null;
  summary: string | null;
  description: string | null;
  tags: string[];
  engagement: { views: number; likes: number; comments: number; shares: number } | null;
  totalComments: number;
  scores: null;
  sentimentMix: null;
  postedAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastRefreshedAt: string;
  lastIncludedRefreshAt: string;
  collectionIds: string[];
  thumbnail: string | null;
  postType: PostType | null;
  status: PostStatus;
  dataVersion: number;
  /** Data version whose comments and scores are complete (null until the first scoring). */
  scoredVersion: number | null;
  isDemo: boolean;
  addedVia: AddedVia;
  addedBy: { id: string; name: string };
  addedByEmail: string | null;
  automation: null;
  topics: CreatorTopic[];
  messages: CreatorMessage[];
  scorer: { name: string; version: string } | null;
  /** Job that asked for the current data version. */
  jobId: string;
  /** Outcome of each data version, for the jobs that asked for them. */
  versionOutcomes: Record<string, JobOutcome>;
  [key: string]: unknown;
}
