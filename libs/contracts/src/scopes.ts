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
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Scopes a key holds only when asked for at creation: the two that spend credits, and the webhook
 * scopes (push is an extension of the spec, so a key made for polling does not gain it).
 */
export const OPT_IN_SCOPES: readonly Scope[] = [
  'posts:write',
  'accounts:write',
  'webhooks:read',
  'webhooks:write',
];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}
