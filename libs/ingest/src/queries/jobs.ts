import { withoutMeta, type ReadStore } from '@analyst/platform';
import type { JobStatus } from '@analyst/domain-content';
import { CONTENT_JOBS } from '../ingest.tokens';
import type { ContentJobDoc } from '../projections/content-jobs.projector';

/** A job of the team that is still kept (30 days); other teams' jobs are never found. */
export async function findJob(
  store: ReadStore,
  teamId: string,
  jobId: string,
  now: Date,
): Promise<ContentJobDoc | null> {
  const doc = await store.collection<ContentJobDoc>(CONTENT_JOBS).findOne({ _id: jobId });
  if (!doc || doc.teamId !== teamId || doc.expiresAt <= now.toISOString()) return null;
  return withoutMeta(doc);
}

export async function listJobs(
  store: ReadStore,
  teamId: string,
  now: Date,
  options: { status?: JobStatus; limit: number },
): Promise<ContentJobDoc[]> {
  const filter: Record<string, unknown> = { teamId, expiresAt: { $gt: now.toISOString() } };
  if (options.status) filter.status = options.status;
  const docs = await store
    .collection<ContentJobDoc>(CONTENT_JOBS)
    .find(filter, { sort: { createdAt: -1, _id: -1 }, limit: options.limit });
  return docs.map((d) => withoutMeta(d));
}
