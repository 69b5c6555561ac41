import type { ApiKeyEvent } from '@analyst/contracts';
import {
  DEFAULT_KEY_SCOPES,
  IdentityError,
  apiKeyDecider,
  parseApiKey,
  type ApiKeyCommand,
} from '@analyst/domain-identity';

function decide(events: ApiKeyEvent[], command: ApiKeyCommand): ApiKeyEvent[] {
  return apiKeyDecider.decide(command, events.reduce(apiKeyDecider.evolve, apiKeyDecider.initialState()));
}
function failure(events: ApiKeyEvent[], command: ApiKeyCommand): string {
  try {
    decide(events, command);
  } catch (error) {
    return (error as IdentityError).code;
  }
  return 'none';
}

const create: ApiKeyCommand = {
  type: 'CreateApiKey',
  keyId: 'ak_00000001',
  teamId: 'tm_1',
  name: 'ci',
  scopes: ['posts:read', 'analyses:read'],
  secretHash: 'h1',
  team: { plan: 'growth' },
  activeKeys: 2,
};
const created: ApiKeyEvent = {
  type: 'ApiKeyCreated',
  data: {
    keyId: 'ak_00000001',
    teamId: 'tm_1',
    name: 'ci',
    scopes: ['analyses:read', 'posts:read'],
    secretHash: 'h1',
  },
};

describe('api key decider', () => {
  it('creates a key with its scopes in contract order', () => {
    expect(decide([], create)).toEqual([created]);
  });

  it('refuses a fourth active key, unknown scopes, a plan without the API and a missing team', () => {
    expect(failure([], { ...create, activeKeys: 3 })).toBe('key_limit_reached');
    expect(failure([], { ...create, scopes: ['posts:delete'] })).toBe('invalid_scopes');
    expect(failure([], { ...create, team: { plan: 'starter' } })).toBe('plan_without_api');
    expect(failure([], { ...create, team: null })).toBe('team_not_found');
    expect(failure([created], create)).toBe('key_exists');
  });

  it('leaves the credit-spending scopes out of the default set', () => {
    expect(DEFAULT_KEY_SCOPES).not.toContain('posts:write');
    expect(DEFAULT_KEY_SCOPES).not.toContain('accounts:write');
    expect(DEFAULT_KEY_SCOPES).toHaveLength(7);
  });

  it('rotates an active key and refuses to rotate a revoked one', () => {
    expect(decide([created], { type: 'RotateApiKey', secretHash: 'h2' })).toEqual([
      { type: 'ApiKeyRotated', data: { keyId: 'ak_00000001', teamId: 'tm_1', secretHash: 'h2' } },
    ]);
    const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { keyId: 'ak_00000001', teamId: 'tm_1' } };
    expect(failure([created, revoked], { type: 'RotateApiKey', secretHash: 'h2' })).toBe('key_revoked');
    expect(decide([created], { type: 'RevokeApiKey' })).toEqual([revoked]);
    expect(decide([created, revoked], { type: 'RevokeApiKey' })).toEqual([]);
    expect(failure([], { type: 'RevokeApiKey' })).toBe('key_not_found');
  });

  it('parses presented keys on the first dot', () => {
    expect(parseApiKey('ak_abcdefgh.0123456789abcdef.x')).toBeNull();
    expect(parseApiKey('ak_abcdefgh.0123456789abcdef_-')).toEqual({
      keyId: 'ak_abcdefgh',
      secret: '0123456789abcdef_-',
    });
    expect(parseApiKey('ak_short.0123456789abcdef')).toBeNull();
    expect(parseApiKey('nodot')).toBeNull();
  });
});
