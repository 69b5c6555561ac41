import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ApiRoute,
  ErrorMappingFilter,
  IdempotencyKeyHeader,
  Principal,
  TEAM_NOT_FOUND,
  envelope,
  listEnvelope,
  locationOf,
  openApi,
  validateRequest,
} from '@analyst/platform';
import { MAX_WEBHOOK_ENDPOINTS } from '@analyst/webhooks';
import { EndpointRequestError } from './endpoint-request-error';
import { RegisterWebhookEndpointBody } from './register-webhook-endpoint.body';
import { toApiError } from './webhook-error.mapping';
import type { WebhookEndpointView, WebhookEndpointWithSecret } from './webhook-endpoint-view';
import {
  WebhookEndpointsService,
  type EndpointRequester,
  type QueuedPing,
} from './webhook-endpoints.service';

const ENDPOINT = envelope(openApi.ref('WebhookEndpoint'));
const ENDPOINT_WITH_SECRET = envelope(openApi.ref('WebhookEndpointWithSecret'));
const NOT_FOUND = `No such endpoint of the team (endpoint_not_found), or a deleted one (endpoint_deleted), or ${TEAM_NOT_FOUND}`;
const location = (description: string) => ({ Location: { description, schema: openApi.str() } });

function correlationIdOf(request: FastifyRequest): string {
  const header = request.headers['x-correlation-id'];
  return (Array.isArray(header) ? header[0] : header) ?? String(request.id);
}

function requesterOf(principal: Principal, request: FastifyRequest): EndpointRequester {
  return { teamId: principal.targetTeamId, correlationId: correlationIdOf(request) };
}

/** The optional Idempotency-Key of POST /webhooks, under the platform's one rule for the header. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  const { 'Idempotency-Key': key } = validateRequest(
    IdempotencyKeyHeader,
    { 'Idempotency-Key': Array.isArray(header) ? header[0] : header },
    (message) => new EndpointRequestError('invalid_request', message),
  );
  return key ?? null;
}

/**
 * Extension of the spec (push, issue 39): a team's webhook endpoints. Scopes and rate classes come
 * from the contract's route table (`@ApiRoute`); the target team is the principal's (the gateway
 * resolved an Enterprise key's `teamId`), and each team sees only the endpoints in its own stream.
 */
@ApiTags('webhooks')
@ApiKeyAuth()
@Controller('webhooks')
@UseFilters(new ErrorMappingFilter(toApiError))
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @ApiRoute('POST /webhooks')
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description:
      'Extension of the spec (push). Scope webhooks:write. Rate class webhooks_write. The answer carries the signing secret, the only time it is shown (rotate-secret makes a new one). At most 10 endpoints per team.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Names the registration: a retry with the same key and body answers the same endpoint and secret (200, meta.replayed true) instead of registering a second. The same key with another body, or after the secret was rotated, is 409 idempotency_key_reused.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$' },
  })
  @ApiEnvelopeResponse(
    201,
    envelope(openApi.ref('WebhookEndpointWithSecret'), openApi.ref('WebhookEndpointWriteMeta')),
    {
      description: 'Registered: the endpoint with its secret, shown once',
      headers: location(
        'The endpoint, prefix included (/analyst/v1/webhooks/<id>; with ?teamId= for a sub-team).',
      ),
    },
  )
  @ApiEnvelopeResponse(
    200,
    envelope(openApi.ref('WebhookEndpointWithSecret'), openApi.ref('WebhookEndpointWriteMeta')),
    {
      description:
        'A retry with the same Idempotency-Key: the first answer again, meta.replayed true; nothing registered',
    },
  )
  @ApiErrorResponses({
    400: 'Malformed body (invalid_request); a URL that is not https, carries credentials, does not resolve or resolves to a loopback, private, link-local, multicast or cloud-metadata address (invalid_webhook_url); unknown or no event types (invalid_webhook_events); a description over 200 characters (invalid_webhook_description)',
    404: TEAM_NOT_FOUND,
    409: 'The team has 10 endpoints already (endpoint_limit_reached), or the Idempotency-Key was used with another body (idempotency_key_reused)',
  })
  async register(
    @Principal() principal: Principal,
    @Body() body: RegisterWebhookEndpointBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: WebhookEndpointWithSecret; meta: { replayed: boolean } }> {
    const idempotencyKey = idempotencyKeyOf(request);
    const { endpoint, replayed } = await this.endpoints.register(
      requesterOf(principal, request),
      body,
      idempotencyKey,
    );
    reply.status(replayed ? 200 : 201);
    reply.header('Location', locationOf(`/webhooks/${endpoint.id}`, principal));
    return { data: endpoint, meta: { replayed } };
  }

  @Get()
  @ApiRoute('GET /webhooks')
  @ApiOperation({
    summary: 'The team’s webhook endpoints',
    description: 'Extension of the spec (push). Scope webhooks:read. Oldest first; never the secrets.',
  })
  @ApiEnvelopeResponse(
    200,
    listEnvelope(openApi.ref('WebhookEndpoint'), openApi.ref('WebhookEndpointListMeta')),
    {
      description: 'Active and disabled endpoints (deleted ones are gone)',
    },
  )
  async list(
    @Principal() principal: Principal,
  ): Promise<{ data: WebhookEndpointView[]; meta: { count: number; max: number } }> {
    const endpoints = await this.endpoints.list(principal.targetTeamId);
    return { data: endpoints, meta: { count: endpoints.length, max: MAX_WEBHOOK_ENDPOINTS } };
  }

  @Get(':webhookId')
  @ApiRoute('GET /webhooks/{webhookId}')
  @ApiOperation({
    summary: 'One webhook endpoint',
    description: 'Extension of the spec (push). Scope webhooks:read. Never the secret.',
  })
  @ApiEnvelopeResponse(200, ENDPOINT, { description: 'The endpoint' })
  @ApiErrorResponses({ 404: NOT_FOUND })
  async get(
    @Principal() principal: Principal,
    @Param('webhookId') webhookId: string,
  ): Promise<{ data: WebhookEndpointView; meta: Record<string, never> }> {
    return { data: await this.endpoints.get(principal.targetTeamId, webhookId), meta: {} };
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @ApiRoute('DELETE /webhooks/{webhookId}')
  @ApiOperation({
    summary: 'Delete a webhook endpoint',
    description:
      'Extension of the spec (push). Scope webhooks:write. Rate class webhooks_write. Nothing more is delivered to it; its pending deliveries end as endpoint_deleted. Deleting it again is no error.',
  })
  @ApiResponse({ status: 204, description: 'Deleted (or deleted already); no body' })
  @ApiErrorResponses({ 404: `No such endpoint of the team (endpoint_not_found), or ${TEAM_NOT_FOUND}` })
  async delete(
    @Principal() principal: Principal,
    @Param('webhookId') webhookId: string,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.endpoints.delete(requesterOf(principal, request), webhookId);
  }

  @Post(':webhookId/rotate-secret')
  @HttpCode(200)
  @ApiRoute('POST /webhooks/{webhookId}/rotate-secret')
  @ApiOperation({
    summary: 'Rotate an endpoint’s signing secret',
    description:
      'Extension of the spec (push). Scope webhooks:write. Rate class webhooks_write. The answer carries the new secret, shown once; the replaced one keeps signing beside it for 24 hours (Analyst-Signature then has two v1 values).',
  })
  @ApiEnvelopeResponse(200, ENDPOINT_WITH_SECRET, { description: 'The endpoint with its new secret' })
  @ApiErrorResponses({ 404: NOT_FOUND })
  async rotateSecret(
    @Principal() principal: Principal,
    @Param('webhookId') webhookId: string,
    @Req() request: FastifyRequest,
  ): Promise<{ data: WebhookEndpointWithSecret; meta: Record<string, never> }> {
    return { data: await this.endpoints.rotateSecret(requesterOf(principal, request), webhookId), meta: {} };
  }

  @Post(':webhookId/ping')
  @HttpCode(202)
  @ApiRoute('POST /webhooks/{webhookId}/ping')
  @ApiOperation({
    summary: 'Send a test event to an endpoint',
    description:
      'Extension of the spec (push). Scope webhooks:write. Rate class webhooks_write. Queues a webhook.ping event for this endpoint only, whatever it subscribed to; its delivery shows under the Location.',
  })
  @ApiEnvelopeResponse(202, envelope(openApi.ref('WebhookPing')), {
    description: 'Queued',
    headers: location('The endpoint’s deliveries, prefix included (/analyst/v1/webhooks/<id>/deliveries).'),
  })
  @ApiErrorResponses({ 404: NOT_FOUND, 409: 'The endpoint is disabled (endpoint_disabled)' })
  async ping(
    @Principal() principal: Principal,
    @Param('webhookId') webhookId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: QueuedPing; meta: Record<string, never> }> {
    const ping = await this.endpoints.ping(requesterOf(principal, request), webhookId);
    reply.header('Location', locationOf(`/webhooks/${ping.webhookId}/deliveries`, principal));
    return { data: ping, meta: {} };
  }
}
