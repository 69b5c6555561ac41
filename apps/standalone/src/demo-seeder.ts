import { Inject, Injectable, Logger } from '@nestjs/common';
import { SCOPES, teamStream } from '@analyst/contracts';
import { IdentityService } from '@analyst/gateway';
import { AddPostsHandler, seedDemoContent } from '@analyst/ingest';
import { LedgerService } from '@analyst/ledger';
import { ANALYST_CONFIG, EVENT_STORE, type AnalystConfig, type EventStore } from '@analyst/platform';

export const DEMO_TEAM_NAME = 'Demo Team';
/** Ad Hoc credits the demo team starts with, on top of its plan's monthly MAPs. */
export const DEMO_ADHOC_CREDITS = 1000;

export interface DemoSeedResult {
  created: boolean;
  teamId: string;
  /** The full API key, only when it was created by this start. */
  key: string | null;
  /** Demo posts added through the content path. */
  posts: number;
}

/**
 * Gives a new installation something to call: a demo team on the Enterprise plan with a key that
 * has every scope, Ad Hoc credits, and about 60 demo posts added through the normal content path in
 * two campaigns with nested groups. Runs only while the event log is empty, so a restart never adds
 * a second team.
 */
@Injectable()
export class DemoSeeder {
  private readonly logger = new Logger('Demo');

  constructor(
    private readonly identity: IdentityService,
    private readonly ledger: LedgerService,
    private readonly addPosts: AddPostsHandler,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ANALYST_CONFIG) private readonly config: AnalystConfig,
  ) {}

  async seedIfEmpty(): Promise<DemoSeedResult | null> {
    if ((await this.events.headPosition()) >= 0) return null;
    const ctx = { correlationId: 'demo-seed', teamId: null };
    const { teamId } = await this.identity.createTeam({ name: DEMO_TEAM_NAME, plan: 'enterprise' }, ctx);
    const fixed = this.config.ANALYST_DEMO_KEY ? splitKey(this.config.ANALYST_DEMO_KEY) : undefined;
    const key = await this.identity.createKey(
      teamId,
      { name: 'Demo key', scopes: [...SCOPES], fixed },
      { ...ctx, teamId },
    );
    await this.ledger.grant(
      teamId,
      {
        commandId: `demo-grant-${teamId}`,
        pool: 'adhoc',
        amount: DEMO_ADHOC_CREDITS,
        reason: 'demo credits',
      },
      { ...ctx, teamId },
    );
    const content = await seedDemoContent(this.addPosts, teamId, { id: key.id, name: 'Demo key' });
    this.logger.log(
      `demo team ${teamId} created (${(await this.events.readStream(teamStream(teamId))).length} team events, ${content.posts} demo posts)`,
    );
    return { created: true, teamId, key: key.key, posts: content.posts };
  }
}

function splitKey(key: string): { keyId: string; secret: string } {
  const dot = key.indexOf('.');
  return { keyId: key.slice(0, dot), secret: key.slice(dot + 1) };
}
