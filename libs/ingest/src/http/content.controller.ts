import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRoute, Principal, locationOf } from '@analyst/gateway';
import { AddPostsHandler } from '../adding/add-posts.handler';
import { AddPostsBody } from '../adding/content-request.dto';
import { jobHeaders, jobMeta, renderJob } from '../jobs/job-view';
import { findPostsByIds } from '../queries/posts';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import { Inject } from '@nestjs/common';
import { toApiError } from './content-error.mapping';
import { requesterOf, send } from './http-helpers';

@Controller('content')
export class ContentController {
  constructor(
    private readonly addPosts: AddPostsHandler,
    @Inject(READ_STORE) private readonly store: ReadStore,
  ) {}

  @Post('posts/add')
  @ApiRoute('POST /content/posts/add')
  async add(@Principal() principal: Principal, @Body() body: AddPostsBody, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const { job, replayed } = await this.addPosts.add(requesterOf(principal, request), body);
      const posts = await findPostsByIds(this.store, job.accepted.map((a) => a.postId));
      const headers: Record<string, string> = { Location: locationOf(`/content/jobs/${job.jobId}`), ...jobHeaders(job) };
      if (!replayed) headers['Retry-After'] = '5';
      send(reply, replayed ? 200 : 202, { data: renderJob(job, posts), meta: jobMeta(job, replayed) }, headers);
    } catch (error) {
      throw toApiError(error);
    }
  }
}
