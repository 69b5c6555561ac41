import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError } from '@analyst/contracts';
import {
  ApiCursorQuery,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ApiLimitQuery,
  listEnvelope,
  openApi,
  Principal,
  TEAM_NOT_FOUND,
} from '@analyst/platform';
import type { WebhookEndpointDirectory } from '@analyst/webhooks';
import { WEBHOOK_ENDPOINT_DIRECTORY, WebhookDeliveryRunner } from './webhook-delivery-runner';
import {
  decodeDeliveryCursor,
  encodeDeliveryCursor,
  webhookDeliveryView,
  type WebhookDeliveryView,
} from './webhook-delivery-view';

export const DEFAULT_DELIVERIES_LIMIT = 20;
const MAX_DELIVERIES_LIMIT = 100;

/** `limit` as given: digits only, 1 to 100. */
function limitOf(raw: unknown): number {
  if (raw === undefined) return DEFAULT_DELIVERIES_LIMIT;
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= MAX_DELIVERIES_LIMIT))
    throw new ApiError(
      400,
      `limit must be an integer from 1 to ${MAX_DELIVERIES_LIMIT} written in decimal digits, got ${JSON.stringify(raw)}`,
      'invalid_parameter',
    );
  return value;
}

@ApiTags('webhooks')
@ApiKeyAuth()
@Controller('webhooks')
export class WebhookDeliveriesController {
  constructor(
    private readonly runner: WebhookDeliveryRunner,
    @Inject(WEBHOOK_ENDPOINT_DIRECTORY) private readonly endpoints: WebhookEndpointDirectory,
  ) {}

  @Get(':webhookId/deliveries')
  @ApiOperation({
    summary: "A webhook endpoint's recent deliveries, newest first",
    description:
      'Scope webhooks:read. Each delivery is one event sent to this endpoint: its status, attempts, the last attempt (status code, latency, error, the first 1 KB of the answer) and the next retry. An extension of the spec (push).',
  })
  @ApiLimitQuery(DEFAULT_DELIVERIES_LIMIT)
  @ApiCursorQuery()
  @ApiEnvelopeResponse(
    200,
    listEnvelope(
      openApi.ref('WebhookDelivery'),
      openApi.obj({
        limit: openApi.int(),
        count: openApi.int(),
        hasMore: openApi.bool(),
        nextCursor: openApi.nullable(openApi.str('Opaque; pass back as cursor for the next page.')),
      }),
    ),
    { description: 'Deliveries, newest first; meta.hasMore and meta.nextCursor page on' },
  )
  @ApiErrorResponses({
    400: 'An invalid limit (invalid_parameter) or a cursor this route did not return (invalid_cursor)',
    404: `No such endpoint in the team, or it was deleted (endpoint_not_found, endpoint_deleted); or ${TEAM_NOT_FOUND}`,
  })
  async list(
    @Principal() principal: Principal,
    @Param('webhookId') webhookId: string,
    @Query('limit') rawLimit: unknown,
    @Query('cursor') rawCursor: unknown,
  ): Promise<{ data: WebhookDeliveryView[]; meta: Record<string, unknown> }> {
    const limit = limitOf(rawLimit);
    const after = rawCursor === undefined ? undefined : decodeDeliveryCursor(String(rawCursor));
    if (after === null)
      throw new ApiError(
        400,
        'cursor is not one this list returned: pass meta.nextCursor back unchanged',
        'invalid_cursor',
      );
    const teamId = principal.targetTeamId;
    // The caller's team's stream decides whether the endpoint is theirs: another team's id is unknown here.
    const endpoint = await this.endpoints.endpoint(teamId, webhookId);
    if (!endpoint) throw new ApiError(404, `webhook endpoint ${webhookId} not found`, 'endpoint_not_found');
    if (endpoint.status === 'deleted')
      throw new ApiError(404, `webhook endpoint ${webhookId} was deleted`, 'endpoint_deleted');
    const page = await this.runner.deliveries.forEndpoint(webhookId, limit + 1, after);
    const hasMore = page.length > limit;
    const rows = page.slice(0, limit).filter((r) => r.teamId === teamId);
    return {
      data: rows.map(webhookDeliveryView),
      meta: {
        limit,
        count: rows.length,
        hasMore,
        nextCursor: hasMore ? encodeDeliveryCursor(rows[rows.length - 1]) : null,
      },
    };
  }
}
