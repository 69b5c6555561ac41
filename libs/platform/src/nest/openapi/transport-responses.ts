import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ReferenceObject,
  ResponseObject,
  TagObject,
} from '@nestjs/swagger';
import { operationsOf } from './operations';
import { int, str } from './schema-helpers';

/**
 * What the HTTP shell adds to every public answer, whatever the controller: the correlation id,
 * the rate-limit headers of an admitted request, WWW-Authenticate on a 401, and the refusals the
 * framework answers before a controller runs (405, 414, 415, 431), all in the error envelope.
 */
export const TRANSPORT_HEADERS: Record<string, HeaderObject> = {
  XCorrelationId: {
    description:
      'Identifies the request in logs and traces; sent on every response (echoed when the request carried one).',
    required: true,
    schema: str(),
  },
  RateLimit: {
    description:
      'Remaining requests (`r`) and seconds to reset (`t`) per policy, e.g. `"global-minute";r=299;t=13, "global-day";r=9999;t=64693`.',
    schema: str(),
  },
  RateLimitPolicy: {
    description:
      'Quota (`q`) and window in seconds (`w`) per policy, e.g. `"global-minute";q=300;w=60, "global-day";q=10000;w=86400`.',
    schema: str(),
  },
  XRateLimitLimit: { description: 'The key’s global requests per UTC minute.', schema: int() },
  XRateLimitRemaining: { description: 'Global requests left this minute.', schema: int() },
  XRateLimitReset: { description: 'Seconds until the minute window resets.', schema: int() },
  XRateLimitClassRemaining: { description: 'Requests left this minute in the charged class.', schema: int() },
  XRateLimitClassDailyLimit: { description: 'The charged class’s requests per UTC day.', schema: int() },
  XRateLimitClassDailyRemaining: { description: 'Requests left today in the charged class.', schema: int() },
  XRateLimitBytesRemaining: {
    description: 'Response bytes left today under the daily byte cap.',
    schema: int(),
  },
  WWWAuthenticate: {
    description: 'The authentication scheme to use (`Bearer realm="analyst"`).',
    schema: str(),
  },
};

const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

const ADMITTED_RATE_HEADERS: Record<string, ReferenceObject> = {
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
  'X-RateLimit-Limit': headerRef('XRateLimitLimit'),
  'X-RateLimit-Remaining': headerRef('XRateLimitRemaining'),
  'X-RateLimit-Reset': headerRef('XRateLimitReset'),
  'X-RateLimit-Class-Remaining': headerRef('XRateLimitClassRemaining'),
  'X-RateLimit-Class-Daily-Limit': headerRef('XRateLimitClassDailyLimit'),
  'X-RateLimit-Class-Daily-Remaining': headerRef('XRateLimitClassDailyRemaining'),
  'X-RateLimit-Bytes-Remaining': headerRef('XRateLimitBytesRemaining'),
};

const FRAMEWORK_REFUSALS: Record<string, string> = {
  '405': 'The method is not served on this path (method_not_allowed); the message names the allowed ones',
  '414': 'A path segment is longer than 100 characters (uri_too_long)',
  '415': 'A request body that is not application/json (unsupported_media_type)',
  '431': 'The request head (URL and headers) is larger than 16 KiB (headers_too_large)',
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  identity: 'The key, its team, plan, credits and rate-limit headroom.',
  posts: 'The team’s posts, their stored scores, per-post analyses and daily metrics.',
  collections: 'Campaigns and groups of posts, and the posts inside them.',
  analyses: 'Snapshot and search analyses over a selection of posts, and saved reports.',
  comments: 'Sampled comments as evidence behind an analysis or a post (never a full export).',
  content:
    'Adding posts or accounts and refreshing posts (these spend credits), and the content jobs that track them.',
  insights: 'Analyses teammates saved or shared in the app.',
  meta: 'This document.',
  webhooks:
    'Extension of the spec (push): webhook endpoints, their signing secrets and deliveries. What each one is sent is under `webhooks`.',
  events: 'Extension of the spec (push): the team’s events as they happen, a server-sent event stream.',
};

const ERROR_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

/**
 * An error is the JSON envelope whatever the success produces: an event stream's 4xx too, where
 * `@ApiProduces` gave every response the stream's media type.
 */
function errorAsJson(status: string, response: ResponseObject): void {
  if (/^[45]/.test(status) && !response.content?.['application/json']) response.content = ERROR_BODY;
}

/** The framework's refusals every operation can get; 415 only where a body is sent. */
function declareFrameworkRefusals(operation: OperationObject): void {
  for (const [status, description] of Object.entries(FRAMEWORK_REFUSALS)) {
    if (status === '415' && !operation.requestBody) continue;
    operation.responses[status] ??= { description, content: ERROR_BODY };
  }
}

/** The correlation id on every response, the rate-limit headers on a keyed success, WWW-Authenticate on a 401. */
function declareTransportHeaders(status: string, response: ResponseObject, keyed: boolean): void {
  const headers: Record<string, HeaderObject | ReferenceObject> = {
    'X-Correlation-Id': headerRef('XCorrelationId'),
  };
  if (keyed && status.startsWith('2')) Object.assign(headers, ADMITTED_RATE_HEADERS);
  if (status === '401') headers['WWW-Authenticate'] = headerRef('WWWAuthenticate');
  response.headers = { ...headers, ...(response.headers ?? {}) };
}

export function declareTransportResponses(document: OpenAPIObject, apiPrefix: string): void {
  document.components = document.components ?? {};
  document.components.headers = { ...TRANSPORT_HEADERS, ...(document.components.headers ?? {}) };
  const used = new Set<string>();
  for (const { path, operation } of operationsOf(document)) {
    if (!path.startsWith(apiPrefix)) continue;
    for (const tag of operation.tags ?? []) used.add(tag);
    const keyed = (operation.security ?? []).length > 0;
    declareFrameworkRefusals(operation);
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!response || '$ref' in response) continue;
      errorAsJson(status, response as ResponseObject);
      declareTransportHeaders(status, response as ResponseObject, keyed);
    }
  }
  const tags: TagObject[] = [...used]
    .sort()
    .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  document.tags = tags;
}
