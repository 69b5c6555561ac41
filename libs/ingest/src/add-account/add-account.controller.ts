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
import { AddAccountBody } from './add-account.dto';
import { AddAccountHandler } from './add-account.handler';

@ApiTags('content')
@ApiKeyAuth()
@Controller('content')
@UseFilters(new ErrorMappingFilter(toApiError))
export class AddAccountController {
  constructor(
    private readonly addAccounts: AddAccountHandler,
    private readonly jobResponse: ContentJobResponse,
  ) {}

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
    const outcome = await this.addAccounts.add(
      requesterOf(principal, request),
      body,
      idempotencyKeyOf(request),
    );
    await this.jobResponse.send(reply, principal, outcome);
  }
}
