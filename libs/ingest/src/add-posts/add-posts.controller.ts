import { Body, Controller, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ApiRoute,
  ErrorMappingFilter,
  Principal,
  TEAM_NOT_FOUND,
} from '@analyst/platform';
import { ContentJobResponse } from '../http/content-job-response';
import { AMBIGUOUS, ACCEPTED, IDEMPOTENCY_KEY, JOB, REPLAYED } from '../http/content-route-docs';
import { idempotencyKeyOf, requesterOf } from '../http/http-helpers';
import { toApiError } from '../http/ingest-error.mapping';
import { AddPostsBody } from './add-posts.body';
import { AddPostsHandler } from './add-posts.handler';

@ApiTags('content')
@ApiKeyAuth()
@Controller('content')
@UseFilters(new ErrorMappingFilter(toApiError))
export class AddPostsController {
  constructor(
    private readonly addPosts: AddPostsHandler,
    private readonly jobResponse: ContentJobResponse,
  ) {}

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
    const outcome = await this.addPosts.add(requesterOf(principal, request), body, idempotencyKeyOf(request));
    await this.jobResponse.send(reply, principal, outcome);
  }
}
