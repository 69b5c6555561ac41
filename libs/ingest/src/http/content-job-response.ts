import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { locationOf, READ_STORE, type Principal, type ReadStore } from '@analyst/platform';
import type { AddOutcome } from '../request/add-outcome';
import { jobHeaders, jobMeta, renderJob } from '../content-jobs/job-view';
import { findPostsByIds } from '../queries/posts';
import { send } from './http-helpers';

/** Writes the HTTP response of every content route that answers with its job: the same envelope, headers and statuses. */
@Injectable()
export class ContentJobResponse {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** 202 with the job, `Location` and `Retry-After: 5`; a replay is 200 with `meta.replayed`. */
  async send(reply: FastifyReply, principal: Principal, { job, replayed }: AddOutcome): Promise<void> {
    const posts = await findPostsByIds(
      this.store,
      job.accepted.map((a) => a.postId),
    );
    // With ?teamId= when acting on a sub-team, so polling the Location with the same key finds the job.
    const headers: Record<string, string> = {
      Location: locationOf(`/content/jobs/${job.jobId}`, principal),
      ...jobHeaders(job),
    };
    if (!replayed) headers['Retry-After'] = '5';
    send(reply, replayed ? 200 : 202, { data: renderJob(job, posts), meta: jobMeta(job, replayed) }, headers);
  }
}
