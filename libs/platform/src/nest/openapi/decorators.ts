import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  type HeaderObject,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { int, obj, ref, str, type Schema } from './schema-helpers';

/** Names of the two security schemes http-app declares; a key may be sent either way. */
export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'apiKey';

const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

/** Response headers every admitted request carries (http-app adds them to `components.headers`). */
export const OPENAPI_COMPONENT_HEADERS: Record<string, HeaderObject> = {
  RetryAfter: { description: 'Seconds to wait before polling or retrying.', schema: int() },
  XRateLimitDailyLimit: { description: 'The key’s global requests per UTC day.', schema: int() },
  XRateLimitDailyRemaining: { description: 'Global requests left today.', schema: int() },
  XRateLimitClass: {
    description: 'The rate class the request was charged to (on a 429: the class that tripped).',
    schema: str(),
  },
  XRateLimitClassLimit: { description: 'The class’s requests per UTC minute.', schema: int() },
};

const RATE_HEADERS = {
  'X-RateLimit-Daily-Limit': headerRef('XRateLimitDailyLimit'),
  'X-RateLimit-Daily-Remaining': headerRef('XRateLimitDailyRemaining'),
  'X-RateLimit-Class': headerRef('XRateLimitClass'),
  'X-RateLimit-Class-Limit': headerRef('XRateLimitClassLimit'),
};

/** `{ data, meta }`: every successful public response. */
export function envelope(data: Schema, meta: Schema = obj({}, [])): SchemaObject {
  return obj({ data, meta });
}

/** A list response: `{ data: [...], meta }`. */
export const listEnvelope = (item: Schema, meta: Schema = obj({}, [])): SchemaObject =>
  envelope({ type: 'array', items: item }, meta);

export interface EnvelopeResponseOptions {
  description: string;
  /** Extra response headers besides the rate-limit ones, e.g. Location. */
  headers?: Record<string, HeaderObject | ReferenceObject>;
}

/** A success response whose body is the `{ data, meta }` envelope. */
export function ApiEnvelopeResponse(
  status: number,
  body: SchemaObject,
  options: EnvelopeResponseOptions,
): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status,
    description: options.description,
    schema: body,
    headers: { ...RATE_HEADERS, ...(options.headers ?? {}) },
  });
}

/** Headers of an accepted job or analysis: where to poll and when. */
export function pollHeaders(location: string): Record<string, HeaderObject | ReferenceObject> {
  return {
    Location: {
      description: `Where to poll, prefix included (${location}; with ?teamId= when acting for a sub-team).`,
      schema: str(),
    },
    'Retry-After': headerRef('RetryAfter'),
  };
}

/** Error responses in the `{ error: { message, code?, candidates? } }` envelope, status by status. */
export function ApiErrorResponses(
  errors: Partial<Record<400 | 401 | 402 | 403 | 404 | 409 | 413 | 429, string>>,
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...Object.entries(errors).map(([status, description]) =>
      ApiResponse({
        status: Number(status),
        description,
        schema: ref('ErrorEnvelope'),
        ...(status === '429'
          ? {
              headers: {
                'Retry-After': headerRef('RetryAfter'),
                'X-RateLimit-Class': headerRef('XRateLimitClass'),
              },
            }
          : {}),
      }),
    ),
  );
}

/** The 404 every public route can answer: a `teamId` that is not a sub-team of the key's enterprise. */
export const TEAM_NOT_FOUND = 'teamId names a team the key may not act for (team_not_found)';

/**
 * For a controller whose routes are all public under `/analyst/v1`: the API key (Bearer or
 * X-Api-Key), the `teamId` query of Enterprise keys, and the errors the gateway answers before any
 * handler runs. Routes add their own errors with `ApiErrorResponses` (a route's own 404 text replaces this one).
 */
export function ApiKeyAuth(): ClassDecorator {
  return applyDecorators(
    ApiBearerAuth(BEARER_SCHEME),
    ApiSecurity(API_KEY_SCHEME),
    ApiQuery({
      name: 'teamId',
      required: false,
      description:
        'Enterprise keys only: act on this sub-team of the key’s enterprise. Any other team is 404.',
      schema: str(),
    }),
    ApiErrorResponses({
      401: 'Missing, malformed, unknown, rotated or revoked API key (missing_api_key, invalid_api_key, revoked_api_key)',
      403: 'The key lacks a scope the route needs (missing_scope), or the team’s plan does not include the API (plan_without_api)',
      404: TEAM_NOT_FOUND,
      413: 'The response would be larger than 5 MB (response_too_large; request fewer items), or the request body is over 1 MB (body_too_large)',
      429: 'A burst cap, daily budget, the daily byte cap or the failed-authentication limit was hit (rate_limited, auth_attempts_exceeded)',
    }),
  );
}

/** A JSON request body described by a component schema (for handlers that parse an untyped body). */
export function ApiJsonBody(schemaName: string, description?: string): MethodDecorator {
  return ApiBody({ required: true, description, schema: ref(schemaName) });
}
