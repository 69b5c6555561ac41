import type { SchemaObject } from '@nestjs/swagger';
import { arrayOf, obj, str } from './schema-helpers';

/** The error envelope every service answers with (the error filter writes it). */
const errorEnvelope = obj(
  {
    error: obj(
      {
        message: str('What went wrong, in words a person can act on.'),
        code: str(
          'Machine-readable cause, e.g. invalid_request, invalid_filter, missing_api_key, missing_scope, rate_limited, analysis_not_ready. Every 400 carries one.',
        ),
        candidates: arrayOf(
          str(),
          'Collection ids an ambiguous collection name matched (409 collection_name_ambiguous).',
        ),
      },
      ['message'],
    ),
  },
  ['error'],
  { description: 'Every error response: { error: { message, code?, candidates? } }.' },
);

/**
 * The component schemas of the served document. Platform owns only the error envelope; each
 * service module registers the schemas its controllers reference, next to those controllers,
 * because platform may not import the services. The document lists them in registration order.
 */
const REGISTERED = new Map<string, SchemaObject>([['ErrorEnvelope', errorEnvelope]]);

/** Adds named component schemas to every document built after it (the same schema again is a no-op). */
export function registerOpenApiSchemas(schemas: Record<string, SchemaObject>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const known = REGISTERED.get(name);
    if (known && known !== schema)
      throw new Error(`OpenAPI component schema ${name} is registered twice with different schemas`);
    REGISTERED.set(name, schema);
  }
}

/** Every registered component schema by name: the error envelope, then the services' in registration order. */
export function openApiComponentSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries(REGISTERED);
}
