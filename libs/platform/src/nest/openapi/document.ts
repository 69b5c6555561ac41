import { DocumentBuilder, type OpenAPIObject } from '@nestjs/swagger';
import { API_PREFIX } from '../api-paths';
import { API_KEY_SCHEME, BEARER_SCHEME, OPENAPI_COMPONENT_HEADERS } from './decorators';
import { OPENAPI_COMPONENT_SCHEMAS } from './schemas';

const KEY_FORMAT = 'An API key looks like `ak_<key_id>.<secret>`; the secret is shown once when the key is created.';

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
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'ak_<key_id>.<secret>', description: `\`Authorization: Bearer <API_KEY>\`. ${KEY_FORMAT}` }, BEARER_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key', description: `\`X-Api-Key: <API_KEY>\`, the same key as the Bearer scheme. ${KEY_FORMAT}` }, API_KEY_SCHEME)
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
 * Adds what no controller declares: the shared component schemas and headers, and the document's
 * own route (served without a key, so its security is empty).
 */
export function completeOpenApiDocument(document: OpenAPIObject): OpenAPIObject {
  const components = document.components ?? {};
  document.components = {
    ...components,
    schemas: { ...OPENAPI_COMPONENT_SCHEMAS, ...(components.schemas ?? {}) },
    headers: { ...OPENAPI_COMPONENT_HEADERS, ...(components.headers ?? {}) },
  };
  document.paths[`${API_PREFIX}/openapi.json`] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      tags: ['meta'],
      security: [],
      responses: { '200': { description: 'The OpenAPI 3.1 document of the API', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  // Relative: the server that serves this document is the one to call.
  document.servers = [{ url: '/', description: 'the server that serves this document (standalone default http://127.0.0.1:8080)' }];
  document.info.license = { name: 'Proprietary' };
  document.info.contact = { name: 'Analyst API' };
  for (const amendment of AMENDMENTS) amendment(document);
  return document;
}
