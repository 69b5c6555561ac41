/** Shared OpenAPI helpers for the public controllers; the schema builders live under the `openApi` namespace. */
export * as openApi from './schema-helpers';
export { openApiComponentSchemas, registerOpenApiSchemas } from './component-schemas';
export * from './parameters';
export * from './decorators';
export * from './document';
export { declareExamples, OPERATION_EXAMPLES, type OperationExample } from './examples';
