/** API key scopes, exactly as the public contract names them. */
export const SCOPES = [
  'analyses:run',
  'analyses:read',
  'comments:read',
  'posts:read',
  'posts:write',
  'accounts:write',
  'collections:read',
  'team:read',
  'insights:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes that spend credits: a key holds them only when asked for at creation. */
export const OPT_IN_SCOPES: readonly Scope[] = ['posts:write', 'accounts:write'];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}
