import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import { findApiKey, findTeam, type ApiKeyDoc, type TeamDoc } from './identity-read-models';

/** How long another replica's change can go unseen here; this process's own changes are seen at once. */
export const IDENTITY_CACHE_TTL_MS = 1000;

/**
 * Keys and teams as the hot path reads them. IdentityService drops an entry as soon as a command
 * on it has been projected, so in one process a rotation or revocation takes effect at once; the
 * short TTL bounds staleness for changes made by other gateway replicas.
 */
@Injectable()
export class IdentityCache {
  private readonly keys = new Map<string, { doc: ApiKeyDoc | null; at: number }>();
  private readonly teams = new Map<string, { doc: TeamDoc | null; at: number }>();

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async key(keyId: string): Promise<ApiKeyDoc | null> {
    const hit = this.keys.get(keyId);
    if (hit && Date.now() - hit.at < IDENTITY_CACHE_TTL_MS) return hit.doc;
    // Stamped when the read starts, so a read that straddles a change is not kept past the TTL.
    const at = Date.now();
    const doc = await findApiKey(this.store, keyId);
    if (doc) this.keys.set(keyId, { doc, at }); // unknown ids are not cached: guessing must not fill memory
    return doc;
  }

  async team(teamId: string): Promise<TeamDoc | null> {
    const hit = this.teams.get(teamId);
    if (hit && Date.now() - hit.at < IDENTITY_CACHE_TTL_MS) return hit.doc;
    const at = Date.now();
    const doc = await findTeam(this.store, teamId);
    if (doc) this.teams.set(teamId, { doc, at });
    return doc;
  }

  forgetKey(keyId: string): void {
    this.keys.delete(keyId);
  }

  forgetTeam(teamId: string): void {
    this.teams.delete(teamId);
  }
}
