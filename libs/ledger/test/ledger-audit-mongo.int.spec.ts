import { Command } from 'commander';
import {
  MongoReadStore,
  ProjectionRuntime,
  ReadStoreCheckpointStore,
  openReadStore,
  type ConditionalWrites,
} from '@analyst/platform';
import { LEDGER_PROJECTION_CHECKPOINT, ledgerProjectors } from '@analyst/ledger';
import { unique } from '@analyst/testing';
import { adminCall } from '../../gateway/src/cli/admin-client';
import { registerLedgerCli } from '../src/cli/ledger-cli';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';
import { activity, plantReopenedReservation, project, reserve, settle } from './live-read-model-fixtures';

// `ledger audit --mongo-url` against live read models in MongoDB (FerretDB in the local stack).
const url = process.env.MONGO_URL;

if (!url) {
  describe('ledger audit against MongoDB read models', () => {
    it.skip('skipped: no MONGO_URL (start deploy/local/start.sh or run npm run test:integration)', () =>
      undefined);
  });
} else {
  describe('ledger audit against MongoDB read models', () => {
    let k: LedgerKit;
    let mongo: MongoReadStore;
    let database: string;
    let printed: string[];

    beforeAll(async () => {
      k = await ledgerKit();
      await activity(k);
      database = unique('analyst_audit_');
      mongo = await openReadStore({
        kind: 'mongodb',
        url,
        database,
        conditionalWrites:
          (process.env.MONGO_CONDITIONAL_WRITES as ConditionalWrites | undefined) ?? 'server',
      });
      const runtime = new ProjectionRuntime(mongo, ledgerProjectors);
      const applied = await project(runtime, k.events);
      await new ReadStoreCheckpointStore(mongo).save(LEDGER_PROJECTION_CHECKPOINT, applied);
      // Written after the live projection stopped: two events of lag for team_b.
      await reserve(k, 'team_b', 'team_b-r3');
      await settle(k, 'team_b', 'team_b-r2');
    }, 60_000);
    afterAll(async () => {
      await mongo.database.dropDatabase();
      await mongo.close();
      await k.close();
    });
    beforeEach(() => {
      printed = [];
      jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    });
    afterEach(() => {
      jest.restoreAllMocks();
      process.exitCode = undefined;
    });

    async function audit(...args: string[]): Promise<{ text: string; exitCode: number }> {
      const program = new Command('analyst').option('--json').exitOverride();
      registerLedgerCli(program, { admin: adminCall });
      process.exitCode = undefined;
      await program.parseAsync([
        'node',
        'analyst',
        ...args,
        'ledger',
        'audit',
        '--ledger-only',
        '--data-dir',
        k.t.dataDir,
        '--mongo-url',
        url!,
        '--mongo-db',
        database,
      ]);
      const exitCode = Number(process.exitCode ?? 0);
      return { text: printed.splice(0).join('\n'), exitCode };
    }

    it('passes with lag reported as lag (its size, the positions), in JSON and text', async () => {
      const { text, exitCode } = await audit('--json');
      const report = JSON.parse(text);
      expect(report.violations).toEqual([]);
      expect(exitCode).toBe(0);
      expect(report.readModels).toBe(`MongoDB database ${database} at ${url}`);
      const b = await k.events.readStream('ledger-team_b');
      const applied = b.at(-3)!;
      expect(report.liveCheckpoint).toEqual({ name: 'projections:ledger', position: expect.any(Number) });
      expect(report.lag).toEqual(
        ['ledger_balances', 'ledger_reservations'].map((readModel) => ({
          readModel,
          teamId: 'team_b',
          documentId: 'team_b',
          appliedRevision: applied.revision,
          appliedPosition: applied.position,
          headPosition: b.at(-1)!.position,
          events: 2,
        })),
      );
      const plain = await audit();
      expect(plain.exitCode).toBe(0);
      expect(plain.text).toContain(
        `  lag: ledger_reservations/team_b applied revision ${applied.revision} (position ${applied.position}); 2 event(s) behind, up to position ${b.at(-1)!.position} (compared at what it applied: lag, not a difference)`,
      );
      expect(plain.text).toContain(
        'live read models: 2 of 2 teams match the log at the revisions their documents applied',
      );
    });

    it('fails with exit code 1 on a planted divergence, naming the team, the document and the events', async () => {
      await plantReopenedReservation(mongo, 'team_a', 'team_a-r1');
      const settled = (await k.events.readStream('ledger-team_a')).find((e) => e.type === 'CreditsSettled')!;
      const { text, exitCode } = await audit('--json');
      expect(exitCode).toBe(1);
      const report = JSON.parse(text);
      expect(report.violations).toEqual([
        expect.objectContaining({
          teamId: 'team_a',
          eventId: settled.id,
          type: 'CreditsSettled',
          message: expect.stringContaining(
            `live read model ledger_reservations/team_a (2 open) disagrees with the log (1 open) at revision ${settled.revision}: it lists reservation team_a-r1 as open, but the log closed it with CreditsSettled ${settled.id}`,
          ),
        }),
      ]);
    });
  });
}
