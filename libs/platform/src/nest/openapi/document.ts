import {
  DocumentBuilder,
  type OpenAPIObject,
  type ParameterObject,
  type ReferenceObject,
} from '@nestjs/swagger';
import { API_PREFIX } from '../api-paths';
import { API_KEY_SCHEME, BEARER_SCHEME, OPENAPI_COMPONENT_HEADERS } from './decorators';
import { openApiComponentSchemas } from './component-schemas';
import { declareRequestRules } from './request-rules';
import { declareTransportResponses } from './transport-responses';
import { declareExamples } from './examples';
import { jsonContent, operationsOf } from './operations';

const KEY_FORMAT =
  'An API key looks like `ak_<key_id>.<secret>`; the secret is shown once when the key is created.';

/** Title, version and the two ways to send the key; the paths come from the controllers. */
export function openApiConfig(): Omit<OpenAPIObject, 'paths'> {
  return new DocumentBuilder()
    .setTitle('Analyst API')
    .setDescription(
      'Analysis of social-media comment sections. Every path is served under `/analyst/v1` (the deprecated `/v1/client` prefix still works). ' +
        'Successful responses are `{ data, meta }`; errors are `{ error: { message, code?, candidates? } }`.',
    )
    .setVersion('1.5.1')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'ak_<key_id>.<secret>',
        description: `\`Authorization: Bearer <API_KEY>\`. ${KEY_FORMAT}`,
      },
      BEARER_SCHEME,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Api-Key',
        description: `\`X-Api-Key: <API_KEY>\`, the same key as the Bearer scheme. ${KEY_FORMAT}`,
      },
      API_KEY_SCHEME,
    )
    .build();
}

/** Changes a module makes to the generated document (the gateway: operation ids and scopes from its route table). */
export type OpenApiAmendment = (document: OpenAPIObject) => void;
const AMENDMENTS: OpenApiAmendment[] = [];

/** Registers an amendment applied to every document built after it (idempotent per function). */
export function amendOpenApi(amendment: OpenApiAmendment): void {
  if (!AMENDMENTS.includes(amendment)) AMENDMENTS.push(amendment);
}

/**
 * Adds what no controller declares: the registered component schemas, the shared headers, and the document's
 * own route (served without a key, so its security is empty).
 */
export function completeOpenApiDocument(document: OpenAPIObject): OpenAPIObject {
  const components = document.components ?? {};
  document.components = {
    ...components,
    schemas: { ...openApiComponentSchemas(), ...(components.schemas ?? {}) },
    headers: { ...OPENAPI_COMPONENT_HEADERS, ...(components.headers ?? {}) },
  };
  document.paths[`${API_PREFIX}/openapi.json`] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      tags: ['meta'],
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document of the API',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  declareRequestRules(document);
  declareQueryRules(document);
  // Relative: the server that serves this document is the one to call.
  document.servers = [
    {
      url: '/',
      description: 'the server that serves this document (standalone default http://127.0.0.1:8080)',
    },
  ];
  // An SPDX LicenseRef: the API is not published under an open licence.
  document.info.license = {
    name: 'Proprietary',
    identifier: 'LicenseRef-Proprietary',
  } as typeof document.info.license;
  document.info.contact = { name: 'Analyst API' };
  for (const amendment of AMENDMENTS) amendment(document);
  // After the amendments: the examples are keyed by the operationIds the gateway's route table gives.
  declareExamples(document);
  // After the amendments: which operations take a key comes from the gateway's security amendment.
  declareTransportResponses(document, API_PREFIX);
  return document;
}

const QUERY_RULE_400 = 'An undeclared query parameter, or one given with an empty value (invalid_request)';

/**
 * What QueryRules enforces on every public operation, written into the document: string query
 * parameters have `minLength: 1` (an empty value is refused) and every operation that takes
 * parameters lists 400 (its own description kept when it has one).
 */
function declareQueryRules(document: OpenAPIObject): void {
  for (const { path, operation } of operationsOf(document)) {
    if (!path.startsWith(API_PREFIX) || path === `${API_PREFIX}/openapi.json`) continue;
    for (const parameter of operation.parameters ?? []) refuseEmptyQueryValue(parameter);
    closeRequestBody(document, operation.requestBody);
    if (operation.responses && !operation.responses['400']) {
      operation.responses['400'] = {
        description: QUERY_RULE_400,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      };
    }
  }
}

/** A string query parameter, or a list of strings, refuses an empty value unless it sets its own minLength. */
function refuseEmptyQueryValue(parameter: ParameterObject | ReferenceObject): void {
  if (!('in' in parameter) || parameter.in !== 'query' || !parameter.schema || '$ref' in parameter.schema)
    return;
  const schema = parameter.schema as {
    type?: string;
    minLength?: number;
    items?: { type?: string; minLength?: number };
  };
  if (schema.type === 'string' && schema.minLength === undefined) schema.minLength = 1;
  const items = schema.type === 'array' ? schema.items : undefined;
  if (items?.type === 'string' && items.minLength === undefined) items.minLength = 1;
}

/**
 * Request bodies are validated with unknown properties refused (whitelist + forbidNonWhitelisted),
 * so their object schemas say `additionalProperties: false`, down every nested object they declare.
 */
function closeRequestBody(document: OpenAPIObject, body: unknown): void {
  const schema = jsonContent(body)?.schema;
  if (schema) closeObject(document, schema, new Set());
}

/** The parts of a schema that closing its objects reads. */
interface SchemaNode {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  items?: unknown;
  oneOf?: unknown[];
  anyOf?: unknown[];
  allOf?: unknown[];
}

function closeObject(document: OpenAPIObject, schema: unknown, seen: Set<unknown>): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as SchemaNode;
  if (node.$ref) {
    const name = node.$ref.split('/').pop()!;
    closeObject(document, document.components?.schemas?.[name], seen);
    return;
  }
  // Only typed objects: an untyped subschema of a oneOf/anyOf (a rule such as `required`) is not a shape of its own.
  if (node.type === 'object' && node.properties && node.additionalProperties === undefined)
    node.additionalProperties = false;
  for (const child of subschemasOf(node)) closeObject(document, child, seen);
}

/** The schemas nested in one: its properties', its items', and its oneOf, anyOf and allOf. */
function subschemasOf(node: SchemaNode): unknown[] {
  return [
    ...Object.values(node.properties ?? {}),
    ...(node.items ? [node.items] : []),
    ...(node.oneOf ?? []),
    ...(node.anyOf ?? []),
    ...(node.allOf ?? []),
  ];
}
