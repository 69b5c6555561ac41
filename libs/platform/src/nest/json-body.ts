import { ApiError } from '@analyst/contracts';

/** True when a parsed JSON value holds a key that could reach an object's prototype. */
function poisoned(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = poisoned(item);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return '"__proto__"';
    const child = (value as Record<string, unknown>)[key];
    if (
      key === 'constructor' &&
      child !== null &&
      typeof child === 'object' &&
      Object.prototype.hasOwnProperty.call(child, 'prototype')
    )
      return '"constructor.prototype"';
    const found = poisoned(child);
    if (found) return found;
  }
  return null;
}

/**
 * The JSON body parser of every app: a body that does not parse is 400 `malformed_body` saying where
 * it broke; a well-formed body with a `__proto__` (or `constructor.prototype`) key is 400
 * `forbidden_key` saying so, not "not valid JSON". JSON.parse keeps such a key as an own property,
 * so nothing is polluted while it is checked.
 */
/** The two parser calls used, typed structurally (Nest's adapter has its own copy of fastify). */
interface ParserHost {
  removeContentTypeParser(type: string): unknown;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'string' },
    parser: (
      request: unknown,
      body: string | Buffer,
      done: (error: Error | null, body?: unknown) => void,
    ) => void,
  ): unknown;
}

export function useJsonBodyParser(fastify: ParserHost): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0)
      return done(
        new ApiError(
          400,
          'the body is empty, but content-type says application/json; send a JSON object',
          'malformed_body',
        ),
        undefined,
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return done(
        new ApiError(400, `the body is not valid JSON: ${(error as Error).message}`, 'malformed_body'),
        undefined,
      );
    }
    const key = poisoned(parsed);
    if (key)
      return done(
        new ApiError(
          400,
          `the JSON body has a ${key} key, which is never accepted; remove it`,
          'forbidden_key',
        ),
        undefined,
      );
    done(null, parsed);
  });
}
