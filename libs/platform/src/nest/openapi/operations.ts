import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the document with its path, in the document's order (by path, then method). */
export function* operationsOf(
  document: OpenAPIObject,
): Generator<{ path: string; operation: OperationObject }> {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) yield { path, operation };
    }
  }
}

/** The `application/json` content of a request body or response, when it declares one. */
export function jsonContent(bodyOrResponse: unknown): { schema?: unknown; example?: unknown } | undefined {
  return (bodyOrResponse as { content?: Record<string, { schema?: unknown; example?: unknown }> } | undefined)
    ?.content?.['application/json'];
}
