import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRoute, Principal, locationOf } from '@analyst/gateway';
import { AddPostsHandler } from '../adding/add-posts.handler';
import { AddPostsBody } from '../adding/content-request.dto';
import { jobHeaders, jobMeta, renderJob } from '../jobs/job-view';
import { findPostsByIds } from '../queries/posts';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import { Inject } from '@nestjs/common';
import type { ContentJob } from '@analyst/domain-content';
import { RefreshPostsBody } from '../refresh/refresh.dto';
import { RefreshPostsHandler } from '../refresh/refresh-posts.handler';
import { AddAccountBody } from '../accounts/add-account.dto';
import { AddAccountHandler } from '../accounts/add-account.handler';
import { toApiError } from './content-error.mapping';
import { requesterOf, send } from './http-helpers';

@Controller('content')
export class ContentController {
  constructor(
    private readonly addPosts: AddPostsHandler,
    private readonly refreshPosts: RefreshPostsHandler,
    private readonly addAccounts: AddAccountHandler,
    @Inject(READ_STORE) private readonly store: ReadStore,
  ) {}

  @Post('posts/refresh')
  @ApiRoute('POST /content/posts/refresh')
  async refresh(@Principal() principal: Principal, @Body() body: RefreshPostsBody, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const job = await this.refreshPosts.refresh(requesterOf(principal, request), body);
      await this.respond(reply, job, false, principal);
    } catch (error) {
      throw toApiError(error);
    }
  }

  @Post('accounts/add')
  @ApiRoute('POST /content/accounts/add')
  async addAccount(@Principal() principal: Principal, @Body() body: AddAccountBody, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const { job, replayed } = await this.addAccounts.add(requesterOf(principal, request), body);
      await this.respond(reply, job, replayed, principal);
    } catch (error) {
      throw toApiError(error);
    }
  }

  @Post('posts/add')
  @ApiRoute('POST /content/posts/add')
  async add(@Principal() principal: Principal, @Body() body: AddPostsBody, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const { job, replayed } = await this.addPosts.add(requesterOf(principal, request), body);
      await this.respond(reply, job, replayed, principal);
    } catch (error) {
      throw toApiError(error);
    }
  }

  /** 202 with the job, `Location` and `Retry-After: 5`; a replay is 200 with `meta.replayed`. */
  private async respond(reply: FastifyReply, job: ContentJob, replayed: boolean, principal: Principal): Promise<void> {
    const posts = await findPostsByIds(this.store, job.accepted.map((a) => a.postId));
    // With ?teamId= when acting on a sub-team, so polling the Location with the same key finds the job.
    const headers: Record<string, string> = { Location: locationOf(`/content/jobs/${job.jobId}`, principal), ...jobHeaders(job) };
    if (!replayed) headers['Retry-After'] = '5';
    send(reply, replayed ? 200 : 202, { data: renderJob(job, posts), meta: jobMeta(job, replayed) }, headers);
  }
}
