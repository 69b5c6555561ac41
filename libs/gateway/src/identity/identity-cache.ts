import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import { findApiKey, findSubTeams, findTeam, type ApiKeyDoc, type TeamDoc } from './identity-read-models';

/**
 * How long an entry is kept when no event about it arrives. Changes do not wait for it: every
 * identity event this process projects (its own commands' and every other replica's, read from the
 * log within tens of milliseconds) drops the entries it touched. It only bounds staleness if the
 * projection itself stalls, which `/readyz` reports as not ready.
 */
export const IDENTITY_CACHE_TTL_MS = 10_000;

/**
 * Keys and teams as the hot path reads them: in memory, kept true by the identity events. A miss
 * reads the projected document once. A read that straddles an event is not kept, so a rotation or
 * revocation is never hidden by an answer fetched just before it.
 */
@Injectable()
export class IdentityCache {
  private readonly keys = new Map<string, { doc: ApiKeyDoc | null; at: number }>();
  private readonly teams = new Map<string, { doc: TeamDoc | null; at: number }>();
  private readonly subTeamLists = new Map<string, { docs: TeamDoc[]; at: number }>();
  /** Bumped on every drop: a read that began before a drop must not store what it found. */
  private generation = 0;

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async key(keyId: string): Promise<ApiKeyDoc | null> {
    const cached = this.cachedKey(keyId);
    if (cached !== undefined) return cached;
    const at = Date.now();
    const generation = this.generation;
    const doc = await findApiKey(this.store, keyId);
    // Unknown ids are not cached: guessing must not fill memory.
    if (doc && generation === this.generation) this.keys.set(keyId, { doc, at });
    return doc;
  }

  /** The key's document when the cache holds it, fresh; undefined when only `key` can tell (a read). */
  cachedKey(keyId: string): ApiKeyDoc | null | undefined {
    const hit = this.keys.get(keyId);
    return hit && Date.now() - hit.at < IDENTITY_CACHE_TTL_MS ? hit.doc : undefined;
  }

  /** The team's document when the cache holds it, fresh; undefined when only `team` can tell (a read). */
  cachedTeam(teamId: string): TeamDoc | null | undefined {
    const hit = this.teams.get(teamId);
    return hit && Date.now() - hit.at < IDENTITY_CACHE_TTL_MS ? hit.doc : undefined;
  }

  async team(teamId: string): Promise<TeamDoc | null> {
    const cached = this.cachedTeam(teamId);
    if (cached !== undefined) return cached;
    const at = Date.now();
    const generation = this.generation;
    const doc = await findTeam(this.store, teamId);
    if (doc && generation === this.generation) this.teams.set(teamId, { doc, at });
    return doc;
  }

  /** An Enterprise team's sub-teams, oldest first. */
  async subTeams(parentTeamId: string): Promise<TeamDoc[]> {
    const hit = this.subTeamLists.get(parentTeamId);
    if (hit && Date.now() - hit.at < IDENTITY_CACHE_TTL_MS) return hit.docs;
    const at = Date.now();
    const generation = this.generation;
    const docs = await findSubTeams(this.store, parentTeamId);
    if (generation === this.generation) this.subTeamLists.set(parentTeamId, { docs, at });
    return docs;
  }

  forgetKey(keyId: string): void {
    this.generation += 1;
    this.keys.delete(keyId);
  }

  /** Also drops every sub-team list: a team event does not say whose list it is on, and they are rare. */
  forgetTeam(teamId: string): void {
    this.generation += 1;
    this.teams.delete(teamId);
    this.subTeamLists.clear();
  }
}
