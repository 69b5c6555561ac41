/** Shared OpenAPI helpers for the public controllers; the schema builders live under the `openApi` namespace. */
export * as openApi from './schema-helpers';
export { OPENAPI_COMPONENT_SCHEMAS, CONTENT_JOB_KINDS, CONTENT_JOB_STATUSES, CONTENT_SKIP_REASONS, CONTENT_REJECT_REASONS, SAMPLE_ROW_REASONS } from './schemas';
export * from './parameters';
export * from './decorators';
export * from './document';
