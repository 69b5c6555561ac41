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
import { ACCEPTED, JOB } from '../http/content-route-docs';
import { requesterOf } from '../http/http-helpers';
import { toApiError } from '../http/ingest-error.mapping';
import { RefreshPostsBody } from './refresh.dto';
import { RefreshPostsHandler } from './refresh-posts.handler';

@ApiTags('content')
@ApiKeyAuth()
@Controller('content')
@UseFilters(new ErrorMappingFilter(toApiError))
export class RefreshPostsController {
  constructor(
    private readonly refreshPosts: RefreshPostsHandler,
    private readonly jobResponse: ContentJobResponse,
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
    const job = await this.refreshPosts.refresh(requesterOf(principal, request), body);
    await this.jobResponse.send(reply, principal, { job, replayed: false });
  }
}
