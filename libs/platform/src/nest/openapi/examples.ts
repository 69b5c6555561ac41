import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from '@nestjs/swagger';
import { jsonContent, operationsOf } from './operations';
import RECORDED from './recorded-examples.json';

/** One recorded call of an operation: its parameters, its body, and the answer it got. */
export interface OperationExample {
  /** Path and query parameters by name, as sent (query lists comma-separated). */
  parameters?: Record<string, string>;
  requestBody?: unknown;
  /** The response body by status. */
  responses: Record<string, unknown>;
}

/** Recorded from the standalone app by tools/record-openapi-examples.ts (npm run openapi:examples). */
export const OPERATION_EXAMPLES: Record<string, OperationExample> = RECORDED as Record<
  string,
  OperationExample
>;

/** A parameter's example in its schema's type: lists for array parameters, numbers for numeric ones. */
function typed(value: string, schema: SchemaObject | undefined): unknown {
  if (schema?.type === 'array')
    return value.split(',').map((item) => typed(item, schema.items as SchemaObject | undefined));
  if (schema?.type === 'integer' || schema?.type === 'number') return Number(value);
  return value;
}

/**
 * Puts the recorded example of each operation (by operationId) on its parameters, its request body
 * and its success response, so every operation in the document shows a real call.
 */
export function declareExamples(
  document: OpenAPIObject,
  examples: Record<string, OperationExample> = OPERATION_EXAMPLES,
): void {
  for (const { operation } of operationsOf(document)) {
    const example = operation.operationId ? examples[operation.operationId] : undefined;
    if (example) exampleOperation(operation, example);
  }
}

function exampleOperation(operation: OperationObject, example: OperationExample): void {
  for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
    const value = example.parameters?.[parameter.name];
    if (value !== undefined && (parameter.in === 'path' || parameter.in === 'query'))
      parameter.example = typed(value, parameter.schema as SchemaObject | undefined);
  }
  const body = jsonContent(operation.requestBody);
  if (body && example.requestBody !== undefined) body.example = example.requestBody;
  for (const [status, value] of Object.entries(example.responses)) {
    const content = jsonContent(operation.responses[status]);
    if (content) content.example = value;
  }
}
