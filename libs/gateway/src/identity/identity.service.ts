import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { PlanId, Scope } from '@analyst/contracts';
import {
  DEFAULT_KEY_SCOPES,
  IdentityError,
  KEY_ID_PREFIX,
  formatApiKey,
  isKeyId,
  isKeySecret,
  type ApiKeyCommand,
  type RateCaps,
  type TeamCommand,
} from '@analyst/domain-identity';
import {
  ID_GENERATOR,
  KeyedQueue,
  ProjectionService,
  READ_STORE,
  type CommandContext,
  type CommandHandler,
  type IdGenerator,
  type ReadStore,
  projects,
} from '@analyst/platform';
import { ApiKeyCommands } from './api-key-commands';
import { IdentityCache } from './identity-cache';
import { API_KEYS_COLLECTION, findApiKey, findTeam, type ApiKeyDoc } from './identity-read-models';
import { apiKeysProjector, identityReadModels, teamsProjector } from './identity.projectors';
import { hashSecret } from './secret-hash';
import { TeamCommands } from './team-commands';

/** `teamId` is null for commands no team asked for (operators, seeding). */
export type IdentityContext = Pick<CommandContext, 'correlationId' | 'causationId'> & {
  teamId: string | null;
};

export interface CreatedKey {
  id: string;
  name: string;
  teamId: string;
  secret: string;
  scopes: Scope[];
  /** The full key a client presents: `<id>.<secret>`. Shown once. */
  key: string;
  position: number;
}

/**
 * Commands on teams and keys. Each one appends to the aggregate's stream and waits until the read
 * models include it, so the caller's next read (or the next authenticated request) sees it.
 */
@Injectable()
export class IdentityService implements OnModuleInit {
  /** Key creation is serialized per team so the 3-active-keys rule holds under concurrent calls. */
  private readonly perTeam = new KeyedQueue();

  constructor(
    private readonly teams: TeamCommands,
    private readonly keys: ApiKeyCommands,
    private readonly projections: ProjectionService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly cache: IdentityCache,
  ) {}

  onModuleInit(): void {
    this.projections.register(...identityReadModels.projectors);
    // Every replica projects every identity event, whichever replica wrote it: each one drops
    // what it changed from this process's cache, so the next request reads the new document.
    this.projections.onApplied((event) => {
      if (projects(apiKeysProjector, event)) this.cache.forgetKey(event.data.keyId);
      else if (projects(teamsProjector, event)) this.cache.forgetTeam(event.data.teamId);
    });
  }

  async createTeam(
    input: { name: string; plan: PlanId | string; parentTeamId?: string | null },
    ctx: IdentityContext,
  ): Promise<{ teamId: string; position: number }> {
    const teamId = this.ids.next('tm_');
    const parentTeamId = input.parentTeamId ?? null;
    const parent = parentTeamId ? await findTeam(this.store, parentTeamId) : null;
    const command: TeamCommand = {
      type: 'CreateTeam',
      data: {
        teamId,
        name: input.name,
        plan: input.plan,
        parentTeamId,
        parent: parent ? { teamId: parent._id, plan: parent.plan, parentTeamId: parent.parentTeamId } : null,
      },
    };
    const position = await this.runTeam(teamId, command, { ...ctx, teamId });
    return { teamId, position };
  }

  changePlan(teamId: string, plan: string, ctx: IdentityContext): Promise<number> {
    return this.runTeam(teamId, { type: 'ChangePlan', data: { plan } }, ctx);
  }

  setMapAllotment(teamId: string, monthlyMapAllotment: number, ctx: IdentityContext): Promise<number> {
    return this.runTeam(teamId, { type: 'SetMapAllotment', data: { monthlyMapAllotment } }, ctx);
  }

  setAnalysisSettings(
    teamId: string,
    settings: { scoreVersion: number; engagementWeight: number },
    ctx: IdentityContext,
  ): Promise<number> {
    return this.runTeam(teamId, { type: 'ChangeAnalysisSettings', data: { ...settings } }, ctx);
  }

  setRateLimits(
    teamId: string,
    input: { limits: Record<string, Partial<RateCaps>>; dailyBytes?: number },
    ctx: IdentityContext,
  ): Promise<number> {
    return this.runTeam(
      teamId,
      { type: 'SetRateLimits', data: { limits: input.limits, dailyBytes: input.dailyBytes } },
      ctx,
    );
  }

  async createKey(
    teamId: string,
    input: { name: string; scopes?: readonly string[]; fixed?: { keyId: string; secret: string } },
    ctx: IdentityContext,
  ): Promise<CreatedKey> {
    if (input.fixed && (!isKeyId(input.fixed.keyId) || !isKeySecret(input.fixed.secret))) {
      throw new IdentityError('invalid_key_id', `a fixed key must look like ${KEY_ID_PREFIX}<id>.<secret>`);
    }
    const keyId = input.fixed?.keyId ?? this.ids.next(KEY_ID_PREFIX);
    const secret = input.fixed?.secret ?? this.ids.secret(24);
    const done = await this.perTeam.push(teamId, async () => {
      const team = await findTeam(this.store, teamId);
      const activeKeys = await this.store
        .collection<ApiKeyDoc>(API_KEYS_COLLECTION)
        .count({ teamId, status: 'active' });
      const command: ApiKeyCommand = {
        type: 'CreateApiKey',
        data: {
          keyId,
          teamId,
          name: input.name,
          scopes: [...(input.scopes ?? DEFAULT_KEY_SCOPES)],
          secretHash: hashSecret(secret),
          team: team ? { plan: team.plan } : null,
          activeKeys,
        },
      };
      const result = await this.run(this.keys, keyId, command, { ...ctx, teamId });
      if (result.state.status === 'none') throw new Error('key was not created');
      this.cache.forgetKey(keyId);
      return { position: result.position, scopes: result.state.scopes, name: result.state.name };
    });
    return {
      id: keyId,
      name: done.name,
      teamId,
      secret,
      scopes: done.scopes,
      key: formatApiKey(keyId, secret),
      position: done.position,
    };
  }

  /** A new secret for the same key id: the old secret stops working when this returns. */
  async rotateKey(keyId: string, ctx: IdentityContext): Promise<CreatedKey> {
    const key = await this.requireKey(keyId);
    const secret = this.ids.secret(24);
    const result = await this.run(
      this.keys,
      keyId,
      { type: 'RotateApiKey', data: { secretHash: hashSecret(secret) } },
      { ...ctx, teamId: key.teamId },
    );
    this.cache.forgetKey(keyId);
    return {
      id: keyId,
      name: key.name,
      teamId: key.teamId,
      secret,
      scopes: key.scopes,
      key: formatApiKey(keyId, secret),
      position: result.position,
    };
  }

  async revokeKey(
    keyId: string,
    ctx: IdentityContext,
  ): Promise<{ id: string; teamId: string; position: number }> {
    const key = await this.requireKey(keyId);
    const result = await this.run(
      this.keys,
      keyId,
      { type: 'RevokeApiKey', data: {} },
      { ...ctx, teamId: key.teamId },
    );
    this.cache.forgetKey(keyId);
    return { id: keyId, teamId: key.teamId, position: result.position };
  }

  private async requireKey(keyId: string): Promise<ApiKeyDoc> {
    const key = await findApiKey(this.store, keyId);
    if (!key) throw new IdentityError('key_not_found', `key ${keyId} not found`);
    return key;
  }

  private async runTeam(teamId: string, command: TeamCommand, ctx: IdentityContext): Promise<number> {
    const position = (await this.run(this.teams, teamId, command, { ...ctx, teamId })).position;
    this.cache.forgetTeam(teamId);
    return position;
  }

  private async run<C, E extends { type: string; data: unknown }, S>(
    handler: CommandHandler<string, C, E, S>,
    id: string,
    command: C,
    ctx: IdentityContext,
  ) {
    const result = await handler.handle(id, command, {
      correlationId: ctx.correlationId,
      causationId: ctx.causationId ?? null,
      teamId: ctx.teamId,
    });
    await this.projections.waitFor(result.position);
    return result;
  }
}
