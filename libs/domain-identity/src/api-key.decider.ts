import type { Command, Decider } from '@analyst/eventsourcing';
import {
  OPT_IN_SCOPES,
  PLANS,
  SCOPES,
  isScope,
  type ApiKeyCreated,
  type ApiKeyEvent,
  type ApiKeyRevoked,
  type ApiKeyRotated,
  type PlanId,
  type Scope,
} from '@analyst/contracts';
import { isKeyId } from './api-key-format';
import { IdentityError } from './identity-errors';
import { MAX_ACTIVE_KEYS } from './rate-classes';

export type ApiKeyState =
  | { status: 'none' }
  | {
      status: 'active' | 'revoked';
      keyId: string;
      teamId: string;
      name: string;
      scopes: Scope[];
      secretHash: string;
    };

export type ApiKeyCommand =
  | Command<
      'CreateApiKey',
      {
        keyId: string;
        teamId: string;
        name: string;
        scopes: string[];
        secretHash: string;
        /** The owning team as the service read it; null when it does not exist. */
        team: { plan: PlanId } | null;
        /** Keys of the team that are active right now. */
        activeKeys: number;
      }
    >
  | Command<'RotateApiKey', { secretHash: string }>
  | Command<'RevokeApiKey', Record<string, never>>;

/** Scopes a key gets when none are named: everything except the credit-spending opt-ins. */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = SCOPES.filter((s) => !OPT_IN_SCOPES.includes(s));

function normalizeScopes(scopes: string[]): Scope[] {
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new IdentityError(
      'invalid_scopes',
      `unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}`,
    );
  }
  // Keep the contract's order, so the same set always reads the same.
  return SCOPES.filter((s) => scopes.includes(s));
}

function createKey(
  command: Extract<ApiKeyCommand, { type: 'CreateApiKey' }>,
  state: ApiKeyState,
): ApiKeyEvent[] {
  if (state.status !== 'none')
    throw new IdentityError('key_exists', `key ${command.data.keyId} already exists`);
  if (!isKeyId(command.data.keyId))
    throw new IdentityError('invalid_key_id', 'key id must look like ak_<8+ url-safe characters>');
  if (!command.data.team) throw new IdentityError('team_not_found', `team ${command.data.teamId} not found`);
  if (!PLANS[command.data.team.plan].api) {
    throw new IdentityError(
      'plan_without_api',
      `the team's ${command.data.team.plan} plan does not include the API`,
    );
  }
  const name = command.data.name.trim();
  if (name.length === 0 || name.length > 100)
    throw new IdentityError('invalid_key_name', 'name must be 1 to 100 characters');
  if (command.data.activeKeys >= MAX_ACTIVE_KEYS) {
    throw new IdentityError(
      'key_limit_reached',
      `a team may have at most ${MAX_ACTIVE_KEYS} active keys; revoke one first`,
    );
  }
  const created: ApiKeyCreated = {
    type: 'ApiKeyCreated',
    data: {
      keyId: command.data.keyId,
      teamId: command.data.teamId,
      name,
      scopes: normalizeScopes(command.data.scopes),
      secretHash: command.data.secretHash,
    },
  };
  return [created];
}

export function decideApiKey(command: ApiKeyCommand, state: ApiKeyState): ApiKeyEvent[] {
  switch (command.type) {
    case 'CreateApiKey':
      return createKey(command, state);
    case 'RotateApiKey': {
      if (state.status === 'none') throw new IdentityError('key_not_found', 'key not found');
      if (state.status === 'revoked')
        throw new IdentityError('key_revoked', `key ${state.keyId} is revoked and cannot be rotated`);
      const rotated: ApiKeyRotated = {
        type: 'ApiKeyRotated',
        data: { keyId: state.keyId, teamId: state.teamId, secretHash: command.data.secretHash },
      };
      return [rotated];
    }
    case 'RevokeApiKey': {
      if (state.status === 'none') throw new IdentityError('key_not_found', 'key not found');
      if (state.status === 'revoked') return []; // revoking twice changes nothing
      const revoked: ApiKeyRevoked = {
        type: 'ApiKeyRevoked',
        data: { keyId: state.keyId, teamId: state.teamId },
      };
      return [revoked];
    }
    default: {
      const _never: never = command;
      throw new Error(`unknown api key command ${JSON.stringify(_never)}`);
    }
  }
}

export function evolveApiKey(state: ApiKeyState, event: ApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyCreated':
      return { status: 'active', ...event.data };
    case 'ApiKeyRotated':
      return state.status === 'active' ? { ...state, secretHash: event.data.secretHash } : state;
    case 'ApiKeyRevoked':
      return state.status === 'none' ? state : { ...state, status: 'revoked' };
    default: {
      const _never: never = event;
      return state;
    }
  }
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: (): ApiKeyState => ({ status: 'none' }),
  decide: decideApiKey,
  evolve: evolveApiKey,
};
