import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';
import { ISO_DATE_OR_INSTANT } from './parameters';

type Schemas = Record<string, SchemaObject>;

/** The property named too, so each rule is self-contained (Redocly: no-required-schema-properties-undefined). */
const required = (name: string): SchemaObject => ({ properties: { [name]: {} }, required: [name] });

const nonEmpty = (name: string): SchemaObject => ({
  required: [name],
  properties: { [name]: { minItems: 1 } },
});

/** POST /analyses: { postIds } alone, or { collectionId } and/or { posts }. */
function analysisSelectionRule(schemas: Schemas): void {
  const selection = schemas.AnalysisRequest?.properties?.selection as SchemaObject | undefined;
  if (selection)
    selection.oneOf = [
      { ...required('postIds'), maxProperties: 1 },
      { anyOf: [required('collectionId'), required('posts')], not: required('postIds') },
    ];
}

/** A collection is named by id, or by name (with type and parentId), never both. */
function collectionRefRule(schemas: Schemas): void {
  const collectionRef = schemas.CollectionRefDto;
  if (collectionRef)
    collectionRef.oneOf = [
      { ...required('id'), maxProperties: 1 },
      { ...required('name'), not: required('id') },
    ];
}

/** Refresh needs something to refresh: a non-empty postIds or links. */
function refreshRule(schemas: Schemas): void {
  const refresh = schemas.RefreshPostsBody;
  if (refresh) refresh.anyOf = [nonEmpty('postIds'), nonEmpty('links')];
}

/** An account is an http(s) URL with a host. */
function accountUrlRule(schemas: Schemas): void {
  const accountUrl = schemas.AccountDto?.properties?.url as SchemaObject | undefined;
  if (accountUrl) Object.assign(accountUrl, { format: 'uri', pattern: '^https?://[^\\s/?#]+' });
}

/** Body dates are read like the query date filters: on the calendar. */
function calendarDateRule(schemas: Schemas): void {
  for (const name of ['AccountFiltersDto', 'CommentFilters']) {
    for (const field of ['since', 'until']) {
      const schema = schemas[name]?.properties?.[field] as SchemaObject | undefined;
      if (schema && schema.type === 'string') schema.pattern = ISO_DATE_OR_INSTANT;
    }
  }
}

/**
 * Rules the body validators enforce across fields, which class-validator decorators cannot spell
 * in the generated schemas: which fields exclude or require each other, URL and calendar shapes.
 * Applied to the component schemas by name, so a client generator and Schemathesis see them.
 */
export function declareRequestRules(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Schemas;
  for (const rule of [
    analysisSelectionRule,
    collectionRefRule,
    refreshRule,
    accountUrlRule,
    calendarDateRule,
  ])
    rule(schemas);
}
