import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import {
  BUCKET_KEYS,
  CONSENSUS_LABELS,
  CONTENT_LABELS,
  DIMENSIONS,
  RELEVANCE_LABELS,
  TOPIC_LABELS,
  type Dimension,
} from '@analyst/contracts';

/**
 * Small builders for the OpenAPI 3.1 (JSON Schema 2020-12) objects the public document uses.
 * `@nestjs/swagger` types `type` as one string; 3.1 spells "or null" as a type array, hence the casts.
 */
export type Schema = SchemaObject | ReferenceObject;

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

export const str = (description?: string, extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
export const int = (description?: string, extra: SchemaObject = {}): SchemaObject => ({
  type: 'integer',
  ...(description ? { description } : {}),
  ...extra,
});
export const num = (description?: string, extra: SchemaObject = {}): SchemaObject => ({
  type: 'number',
  ...(description ? { description } : {}),
  ...extra,
});
export const bool = (description?: string): SchemaObject => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});
export const timestamp = (description?: string): SchemaObject => str(description, { format: 'date-time' });
export const oneOfStrings = (values: readonly string[], description?: string): SchemaObject =>
  str(description, { enum: [...values] });
export const arrayOf = (items: Schema, description?: string, extra: SchemaObject = {}): SchemaObject => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
  ...extra,
});

/** An object; `required` defaults to every listed property (pass the list to relax it). */
export function obj(
  properties: Record<string, Schema>,
  required: string[] = Object.keys(properties),
  extra: SchemaObject = {},
): SchemaObject {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...extra };
}

/** The value or null: a type array for plain types, `anyOf` with `{ type: 'null' }` for references and compositions. */
export function nullable(schema: Schema): SchemaObject {
  const plain = schema as SchemaObject;
  // An enum must list null too, or a null value fails it whatever the type says.
  if (!('$ref' in schema) && typeof plain.type === 'string')
    return {
      ...plain,
      type: [plain.type, 'null'] as unknown as string,
      ...(plain.enum ? { enum: [...plain.enum, null] } : {}),
    };
  return { anyOf: [schema, { type: 'null' }] };
}

/** A fixed score on the 1-10 scale, or null when nothing was scored. */
export const score = (description?: string): SchemaObject =>
  nullable(num(description, { minimum: 1, maximum: 10 }));

// Pieces the analysis and sampling schemas and the comment-sample query share: buckets per dimension.

/** Filter values a dimension accepts: the canonical bucket keys plus that dimension's labels. */
export function bucketValues(dimension: Dimension): string[] {
  const labels: Record<Dimension, Record<string, string>> = {
    sentiment: {},
    content: CONTENT_LABELS,
    topic: TOPIC_LABELS,
    relevance: RELEVANCE_LABELS,
    consensus: CONSENSUS_LABELS,
  };
  return [...BUCKET_KEYS, ...Object.keys(labels[dimension])];
}

/** One of the canonical bucket keys. */
export const bucketKey = oneOfStrings(BUCKET_KEYS);

/** An object with the same schema under each of the five dimensions. */
export const perDimension = (value: Schema): SchemaObject =>
  obj(Object.fromEntries(DIMENSIONS.map((d) => [d, value])));
