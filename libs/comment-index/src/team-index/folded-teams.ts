import {
  postDetailsOf,
  type TeamAnalysisSettingsChanged,
  type TeamCreated,
  type CollectionCreated,
  type PostCreated,
  type PostEvent,
} from '@analyst/contracts';
import { Vocabulary } from '@analyst/domain-analysis';
import { eventsOf, type RecordedEvent } from '@analyst/platform';
import { collectionEntryOf, createdPostFields } from './catalog-entries';
import { materializePost } from './materialized-post';
import { DEFAULT_COMPACTION, TeamIndex, type CompactionPolicy, type PostEntry } from './team-index';

/** The event types `foldIntoTeams` folds (ingest's post and collection streams, the gateway's team stream). */
export const FOLDED_EVENT_TYPES = [
  'TeamCreated',
  'TeamAnalysisSettingsChanged',
  'CollectionCreated',
  'PostCreated',
  'PostTagged',
  'PostRefreshRequested',
  'PostFetched',
  'CommentsFetched',
  'CommentsScored',
  'PostScored',
  'PostFetchFailed',
  'PostHoldResumed',
  'PostCancelled',
] as const;

/**
 * Team indexes folded straight from events, without the read store: the post analyses step folds a
 * post's own stream into one, and the golden test folds the whole log into one as the reference the
 * read side must equal. Vocabulary and author names are shared (interned once for all teams).
 */
export class FoldedTeams {
  readonly vocab = new Vocabulary();
  private readonly authors = new Map<string, number>();
  private readonly teams = new Map<string, TeamIndex>();
  private readonly postTeam = new Map<string, string>();

  constructor(private readonly compaction: CompactionPolicy = DEFAULT_COMPACTION) {}

  team(teamId: string): TeamIndex {
    let team = this.teams.get(teamId);
    if (!team)
      this.teams.set(teamId, (team = new TeamIndex(teamId, this.vocab, this.authors, this.compaction)));
    return team;
  }

  /** A created post, appended to its team's posts (a second `PostCreated` of it changes nothing). */
  addPost(created: PostCreated['data']): void {
    const team = this.team(created.teamId);
    team.known = true;
    if (team.postsById.has(created.postId)) return;
    const post: PostEntry = {
      id: created.postId,
      index: team.posts.length,
      ...createdPostFields(created),
      version: null,
      scored: null,
      pending: null,
    };
    team.posts.push(post);
    team.postsById.set(post.id, post);
    this.postTeam.set(created.postId, created.teamId);
  }

  postById(postId: string): { team: TeamIndex; post: PostEntry } | null {
    const teamId = this.postTeam.get(postId);
    const team = teamId ? this.teams.get(teamId) : undefined;
    const post = team?.postsById.get(postId);
    return team && post ? { team, post } : null;
  }
}

/** The events folded into team indexes, typed as their producers declare them (ingest, gateway). */
type FoldedEvent = TeamCreated | TeamAnalysisSettingsChanged | CollectionCreated | PostEvent;
const isFolded = eventsOf<FoldedEvent>(FOLDED_EVENT_TYPES);

/** Folds one event into its team's index. Unknown posts (another service's stream out of order) are ignored. */
export function foldIntoTeams(teams: FoldedTeams, recorded: RecordedEvent): void {
  if (!isFolded(recorded)) return;
  const event = recorded;
  switch (event.type) {
    case 'TeamCreated':
      teams.team(event.data.teamId).known = true;
      return;
    case 'TeamAnalysisSettingsChanged': {
      const d = event.data;
      teams.team(d.teamId).settings = { scoreVersion: d.scoreVersion, engagementWeight: d.engagementWeight };
      return;
    }
    case 'CollectionCreated': {
      const d = event.data;
      teams.team(d.teamId).known = true;
      teams
        .team(d.teamId)
        .collections.set(d.collectionId, collectionEntryOf(d, recorded.metadata.occurredAt));
      return;
    }
    case 'PostCreated':
      teams.addPost(event.data);
      return;
    case 'PostTagged':
    case 'PostRefreshRequested':
    case 'PostFetched':
    case 'CommentsFetched':
    case 'CommentsScored':
    case 'PostScored':
    case 'PostFetchFailed':
    case 'PostHoldResumed':
    case 'PostCancelled':
      foldIntoPost(teams, event, recorded.metadata.occurredAt);
      return;
    default:
      return;
  }
}

/** A later event of a post already folded. */
function foldIntoPost(
  teams: FoldedTeams,
  event: Exclude<PostEvent, { type: 'PostCreated' }>,
  occurredAt: string,
): void {
  const found = teams.postById(event.data.postId);
  if (!found) return;
  const { team, post } = found;
  const at = ('at' in event.data ? event.data.at : undefined) ?? occurredAt;
  switch (event.type) {
    case 'PostTagged':
      post.collectionIds.push(...event.data.addedCollectionIds);
      post.tags.push(...event.data.addedTags);
      post.updatedAt = at;
      return;
    case 'PostRefreshRequested':
      post.status = 'fetching';
      post.dataVersion = event.data.dataVersion;
      post.lastRefreshedAt = event.data.requestedAt ?? at;
      post.updatedAt = post.lastRefreshedAt;
      return;
    case 'PostFetched': {
      post.status = 'processing';
      Object.assign(post, postDetailsOf(event.data.post));
      post.updatedAt = at;
      return;
    }
    case 'CommentsFetched':
      team.addComments(post, event.data.dataVersion, event.data.comments);
      return;
    case 'CommentsScored':
      team.addScores(post, event.data.dataVersion, event.data.comments);
      return;
    case 'PostScored':
      if (event.data.dataVersion !== post.dataVersion) return;
      team.completeVersion(post, post.dataVersion, event.data.topics, event.data.messages, at);
      post.status = 'complete';
      post.totalComments = event.data.totalComments;
      post.updatedAt = at;
      materializePost(team, post);
      return;
    case 'PostFetchFailed':
      post.status = event.data.outcome;
      team.dropPending(post);
      post.updatedAt = at;
      return;
    case 'PostHoldResumed':
      post.status = 'fetching';
      post.updatedAt = at;
      return;
    case 'PostCancelled':
      post.status = 'cancelled';
      team.dropPending(post);
      post.updatedAt = at;
      return;
  }
}
