import { Body, Controller, Post, Req, Res, Inject } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiRoute,
  Principal,
  locationOf,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  envelope,
  openApi,
  pollHeaders,
  READ_STORE,
  TEAM_NOT_FOUND,
  type ReadStore,
} from '@analyst/platform';
import type { AddOutcome } from '../adding/add-outcome';
import { AddPostsHandler } from '../adding/add-posts.handler';
import { AddPostsBody } from '../adding/content-request.dto';
import { jobHeaders, jobMeta, renderJob } from '../jobs/job-view';
import { findPostsByIds } from '../queries/posts';
import type { ContentJob } from '@analyst/domain-content';
import { RefreshPostsBody } from '../refresh/refresh.dto';
import { RefreshPostsHandler } from '../refresh/refresh-posts.handler';
import { AddAccountBody } from '../accounts/add-account.dto';
import { AddAccountHandler } from '../accounts/add-account.handler';
import { toApiError } from './content-error.mapping';
import { idempotencyKeyOf, requesterOf, send } from './http-helpers';

const JOB = envelope(openApi.ref('ContentJob'), openApi.ref('ContentJobMeta'));
const ACCEPTED = {
  description: 'Accepted: the job, with accepted, skipped and rejected final; poll the Location',
  headers: pollHeaders('/analyst/v1/content/jobs/<job_id>'),
};
const REPLAYED = {
  description:
    'An identical request within the retention window: its existing job, with meta.replayed true; nothing runs again',
};
/** Optional on the add routes: a retry with the same key returns the first job, on any replica. */
const IDEMPOTENCY_KEY = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Names the request: a retry with the same key returns the first job (200, meta.replayed true), whichever instance answers. The same key with another body is 409 idempotency_key_reused. An identical body is replayed with or without a key.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$' },
});
const AMBIGUOUS =
  'A collection name matches more than one collection (collection_name_ambiguous, with error.candidates)';

@ApiTags('content')
@ApiKeyAuth()
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
  @ApiOperation({
    summary: 'Re-fetch and re-score up to 100 posts already on the team',
    description: 'Scope posts:write. Rate class content_refresh. Never replayed.',
  })
  @ApiEnvelopeResponse(202, JOB, ACCEPTED)
  @ApiErrorResponses({
    400: 'Malformed body, no postIds or links, or more than 100 posts (invalid_request)',
    402: 'None of the refreshes that need a credit can be funded (insufficient_credits); nothing is refreshed',
    404: TEAM_NOT_FOUND,
  })
  async refresh(
    @Principal() principal: Principal,
    @Body() body: RefreshPostsBody,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.answer(reply, principal, async () => ({
      job: await this.refreshPosts.refresh(requesterOf(principal, request), body),
      replayed: false,
    }));
  }

  @Post('accounts/add')
  @ApiRoute('POST /content/accounts/add')
  @ApiOperation({
    summary: 'Add the recent public posts of an account',
    description:
      'Scope accounts:write. Rate class content_add_accounts. The job starts as discovering; funding happens in the job (a batch that cannot be funded fails the job, not the request).',
  })
  @IDEMPOTENCY_KEY
  @ApiEnvelopeResponse(202, JOB, ACCEPTED)
  @ApiEnvelopeResponse(200, JOB, REPLAYED)
  @ApiErrorResponses({
    400: 'Malformed body, invalid filters, an account URL that is invalid or on an unsupported platform (invalid_url, unsupported_platform), or an unknown collection id (collection_not_found)',
    404: TEAM_NOT_FOUND,
    409: `${AMBIGUOUS}; or an Idempotency-Key already used with another body (idempotency_key_reused)`,
  })
  async addAccount(
    @Principal() principal: Principal,
    @Body() body: AddAccountBody,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.answer(reply, principal, () =>
      this.addAccounts.add(requesterOf(principal, request), body, idempotencyKeyOf(request)),
    );
  }

  @Post('posts/add')
  @ApiRoute('POST /content/posts/add')
  @ApiOperation({
    summary: 'Add posts by URL',
    description:
      'Scope posts:write. Rate class content_add_posts. Spends 1 credit per new post (5 with capture.fullRead).',
  })
  @IDEMPOTENCY_KEY
  @ApiEnvelopeResponse(202, JOB, ACCEPTED)
  @ApiEnvelopeResponse(200, JOB, REPLAYED)
  @ApiErrorResponses({
    400: 'Malformed body (e.g. no links, more than 100) or an unknown collection id (invalid_request, collection_not_found)',
    402: 'None of the new posts can be funded (insufficient_credits); nothing is created',
    404: TEAM_NOT_FOUND,
    409: `${AMBIGUOUS}; or an Idempotency-Key already used with another body (idempotency_key_reused)`,
  })
  async add(
    @Principal() principal: Principal,
    @Body() body: AddPostsBody,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.answer(reply, principal, () =>
      this.addPosts.add(requesterOf(principal, request), body, idempotencyKeyOf(request)),
    );
  }

  /** Runs a content request and answers with its job; any failure is mapped to its API error. */
  private async answer(
    reply: FastifyReply,
    principal: Principal,
    work: () => Promise<AddOutcome>,
  ): Promise<void> {
    try {
      const { job, replayed } = await work();
      await this.respond(reply, job, replayed, principal);
    } catch (error) {
      throw toApiError(error);
    }
  }

  /** 202 with the job, `Location` and `Retry-After: 5`; a replay is 200 with `meta.replayed`. */
  private async respond(
    reply: FastifyReply,
    job: ContentJob,
    replayed: boolean,
    principal: Principal,
  ): Promise<void> {
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
