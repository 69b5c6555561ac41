import { Inject, Injectable } from '@nestjs/common';
import type { PostStatus } from '@analyst/contracts';
import { IN_FLIGHT_STATUSES, type SkippedEntry } from '@analyst/domain-content';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import type { PostDoc } from '../projections/post-doc';
import { findPostsByLinks } from '../queries/posts';
import type { LinkCandidate } from './classify-links';

export interface Deduped {
  fresh: LinkCandidate[];
  skipped: SkippedEntry[];
  /** Posts already on the team: they still get the request's collections and tags. */
  present: PostDoc[];
  /** How many of `fresh` the read model already shows as this job's posts (a resumed job). */
  resumed: number;
}

/**
 * Step 5 of the add path, first pass: the team's posts as the read model knows them. It may lag the
 * log (another replica may have just created a post), so it only answers what is certainly present;
 * whether a link is free is decided by its claim in step 7 (`ReserveAndCreate`). Posts this same
 * job created before it was interrupted go on to the claim, which finds them (a retried request
 * resumes the job). A link twice in the batch is `duplicate_in_batch`.
 */
@Injectable()
export class Dedupe {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async run(teamId: string, jobId: string | null, candidates: LinkCandidate[]): Promise<Deduped> {
    const result: Deduped = { fresh: [], skipped: [], present: [], resumed: 0 };
    const existing = await findPostsByLinks(this.store, teamId, [
      ...new Set(candidates.map((c) => c.normalized)),
    ]);
    const seen = new Set<string>();
    for (const c of candidates) {
      if (seen.has(c.normalized)) {
        result.skipped.push({ link: c.link, reason: 'duplicate_in_batch' });
        continue;
      }
      seen.add(c.normalized);
      const post = existing.get(c.normalized);
      if (!post) {
        result.fresh.push(c);
      } else if (jobId !== null && post.jobId === jobId && post.dataVersion === 1) {
        result.fresh.push(c);
        result.resumed += 1;
      } else {
        result.skipped.push({ link: c.link, reason: presentSkipReason(post.status) });
        result.present.push(post);
      }
    }
    return result;
  }
}

/** Why a link whose post is already on the team is skipped: still being processed, or done. */
export function presentSkipReason(status: PostStatus): SkippedEntry['reason'] {
  return IN_FLIGHT_STATUSES.includes(status) || status === 'holding'
    ? 'already_processing'
    : 'already_complete';
}
