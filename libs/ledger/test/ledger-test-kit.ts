import {
  commandTopic,
  EVENT_STORE,
  FixedClock,
  MESSAGE_BUS,
  READ_STORE,
  type EventStore,
  type MessageBus,
  type ReadStore,
} from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';
import { teamStream, type PlanId, type TeamEvent } from '@analyst/contracts';
import { LedgerModule, LedgerService } from '@analyst/ledger';

export interface LedgerKit {
  t: TestApp;
  clock: FixedClock;
  ledger: LedgerService;
  events: EventStore;
  bus: MessageBus;
  store: ReadStore;
  /** Appends a team event as the gateway would, and waits until the ledger has applied it. */
  teamEvent(teamId: string, event: TeamEvent): Promise<void>;
  createTeam(teamId: string, plan?: PlanId, allotment?: number): Promise<void>;
  request<T>(type: string, payload: Record<string, unknown>): Promise<T>;
  ledgerEvents(teamId: string): Promise<{ type: string; data: unknown }[]>;
  close(): Promise<void>;
}

let seq = 0;

export async function ledgerKit(
  options: { duplicateDelivery?: boolean; dataDir?: string } = {},
): Promise<LedgerKit> {
  const clock = new FixedClock('2026-03-10T12:00:00.000Z');
  const t = await createTestApp({ modules: [LedgerModule], clock, ...options });
  await t.app.init();
  const ledger = t.app.get(LedgerService);
  const events = t.app.get<EventStore>(EVENT_STORE);
  const bus = t.app.get<MessageBus>(MESSAGE_BUS);
  const store = t.app.get<ReadStore>(READ_STORE);
  const ledgerEvents = async (teamId: string) =>
    (await events.readStream(`ledger-${teamId}`)).map((e) => ({ type: e.type, data: e.data }));
  const kit: LedgerKit = {
    t,
    clock,
    ledger,
    events,
    bus,
    store,
    async teamEvent(teamId, event) {
      const stream = await events.readStream(teamStream(teamId));
      seq += 1;
      await events.append(
        teamStream(teamId),
        [
          {
            id: `ev_team_${seq}`,
            type: event.type,
            schemaVersion: 1,
            data: event.data,
            metadata: {
              correlationId: 'test',
              causationId: null,
              teamId,
              occurredAt: clock.now().toISOString(),
            },
          },
        ],
        stream.length === 0 ? 'no_stream' : stream.length - 1,
      );
      const id = `ev_team_${seq}`;
      // The consumer runs off the relay; wait until the ledger stream holds this command id.
      for (let i = 0; i < 200; i++) {
        const state = await ledger.state(teamId);
        if (state.answers.has(id)) return ledger.caughtUp();
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`ledger never applied ${id}`);
    },
    async createTeam(teamId, plan = 'growth', allotment = 500) {
      await kit.teamEvent(teamId, {
        type: 'TeamCreated',
        data: { teamId, name: teamId, plan, parentTeamId: null, monthlyMapAllotment: allotment },
      });
    },
    request: (type, payload) =>
      bus.request(
        commandTopic('ledger'),
        { id: `msg_${++seq}`, key: String(payload.teamId), type, payload },
        2000,
      ),
    ledgerEvents,
    close: () => t.close(),
  };
  return kit;
}
