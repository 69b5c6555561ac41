import { Inject, Injectable, Logger } from '@nestjs/common';
import { SCOPES, isLedgerErrorReply, ledgerBusMessage, type LedgerBusReply } from '@analyst/contracts';
import { IdentityService } from '@analyst/gateway';
import {
  ANALYST_CONFIG,
  MESSAGE_BUS,
  READ_STORE,
  commandTopic,
  type AnalystConfig,
  type MessageBus,
  type ReadStore,
} from '@analyst/platform';

/**
 * With ANALYST_DEMO=1 (`docker compose up`, the k8s dev overlay, the multi-process test) the gateway
 * starts with a demo team, as `npm start` does: an Enterprise team, a key with every scope
 * (ANALYST_DEMO_KEY fixes it) and Ad Hoc credits granted through the ledger's command topic. Only
 * when no team exists yet.
 */
@Injectable()
export class DistributedDemoSeeder {
  private readonly logger = new Logger('Demo');

  constructor(
    private readonly identity: IdentityService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ANALYST_CONFIG) private readonly config: AnalystConfig,
  ) {}

  async seedIfEmpty(): Promise<{ teamId: string; key: string } | null> {
    // A production gateway never mints a full-scope key nobody asked for.
    if (!this.config.ANALYST_DEMO) return null;
    if ((await this.store.collection('identity_teams').count({})) > 0) return null;
    const ctx = { correlationId: 'demo-seed', teamId: null };
    const { teamId } = await this.identity.createTeam({ name: 'Demo Team', plan: 'enterprise' }, ctx);
    const demoKey = this.config.ANALYST_DEMO_KEY;
    const fixed = demoKey
      ? { keyId: demoKey.slice(0, demoKey.indexOf('.')), secret: demoKey.slice(demoKey.indexOf('.') + 1) }
      : undefined;
    const { key } = await this.identity.createKey(
      teamId,
      { name: 'Demo key', scopes: [...SCOPES], fixed },
      { ...ctx, teamId },
    );
    const reply = await this.bus.request<LedgerBusReply<'GrantCredits'>>(
      commandTopic('ledger'),
      ledgerBusMessage({
        type: 'GrantCredits',
        payload: {
          teamId,
          commandId: `demo-grant-${teamId}`,
          pool: 'adhoc',
          amount: 1000,
          reason: 'demo credits',
        },
      }),
      60_000,
    );
    if (isLedgerErrorReply(reply)) throw new Error(`demo credits refused: ${reply.error.message}`);
    this.logger.log(`demo team ${teamId} created with key ${key.slice(0, key.indexOf('.'))}`);
    return { teamId, key };
  }
}
