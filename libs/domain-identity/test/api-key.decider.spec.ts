import type { ApiKeyEvent } from '@analyst/contracts';
import {
  DEFAULT_KEY_SCOPES,
  IdentityError,
  apiKeyDecider,
  parseApiKey,
  type ApiKeyCommand,
} from '@analyst/domain-identity';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

/** No mocks, only the API key decider's pure functions; a failure must be an IdentityError with that code. */
const given = (events: ApiKeyEvent[]) => DeciderSpecification.for(apiKeyDecider).given(events);

const create: Extract<ApiKeyCommand, { type: 'CreateApiKey' }> = {
  type: 'CreateApiKey',
  data: {
    keyId: 'ak_00000001',
    teamId: 'tm_1',
    name: 'ci',
    scopes: ['posts:read', 'analyses:read'],
    secretHash: 'h1',
    team: { plan: 'growth' },
    activeKeys: 2,
  },
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
    given([]).when(create).then([created]);
  });

  describe('refuses a fourth active key, unknown scopes, a plan without the API and a missing team', () => {
    it('refuses a fourth active key: key_limit_reached', () => {
      given([])
        .when({ ...create, data: { ...create.data, activeKeys: 3 } })
        .thenFails('key_limit_reached', IdentityError);
    });
    it('refuses unknown scopes: invalid_scopes', () => {
      given([])
        .when({ ...create, data: { ...create.data, scopes: ['posts:delete'] } })
        .thenFails('invalid_scopes', IdentityError);
    });
    it('refuses a plan without the API: plan_without_api', () => {
      given([])
        .when({ ...create, data: { ...create.data, team: { plan: 'starter' } } })
        .thenFails('plan_without_api', IdentityError);
    });
    it('refuses a missing team: team_not_found', () => {
      given([])
        .when({ ...create, data: { ...create.data, team: null } })
        .thenFails('team_not_found', IdentityError);
    });
    it('refuses a second creation: key_exists', () => {
      given([created]).when(create).thenFails('key_exists', IdentityError);
    });
  });

  it('leaves the credit-spending scopes out of the default set', () => {
    expect(DEFAULT_KEY_SCOPES).not.toContain('posts:write');
    expect(DEFAULT_KEY_SCOPES).not.toContain('accounts:write');
    expect(DEFAULT_KEY_SCOPES).toHaveLength(7);
  });

  describe('rotates an active key and refuses to rotate a revoked one', () => {
    const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { keyId: 'ak_00000001', teamId: 'tm_1' } };
    it('rotates an active key', () => {
      given([created])
        .when({ type: 'RotateApiKey', data: { secretHash: 'h2' } })
        .then([{ type: 'ApiKeyRotated', data: { keyId: 'ak_00000001', teamId: 'tm_1', secretHash: 'h2' } }]);
    });
    it('refuses to rotate a revoked key: key_revoked', () => {
      given([created, revoked])
        .when({ type: 'RotateApiKey', data: { secretHash: 'h2' } })
        .thenFails('key_revoked', IdentityError);
    });
    it('revokes an active key', () => {
      given([created]).when({ type: 'RevokeApiKey', data: {} }).then([revoked]);
    });
    it('writes nothing to revoke a revoked key', () => {
      given([created, revoked]).when({ type: 'RevokeApiKey', data: {} }).then([]);
    });
    it('refuses to revoke a missing key: key_not_found', () => {
      given([]).when({ type: 'RevokeApiKey', data: {} }).thenFails('key_not_found', IdentityError);
    });
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
