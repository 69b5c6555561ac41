import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { SqliteEventStore, type RecordedEvent } from '@analyst/platform';
import { adminCall } from '../../gateway/src/cli/admin-client';
import { registerLedgerCli } from '../src/cli/ledger-cli';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';

const ROOT = join(__dirname, '../../..');
const AS_OF = '2026-03-10T12:10:00.000Z';
const LINK = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const NORMAL = 'youtube.com/watch?v=dQw4w9WgXcQ';
const rid = (jobId: string, n: number) => `rs_${jobId}_${n.toString(16).padStart(16, '0')}`;

/**
 * The ledger's half of the log comes from the real ledger service; the content half is appended the
 * way ingest appends it (job opened, post created naming its reservation, the version's outcome),
 * then the ledger command ingest's credit manager sends for that outcome.
 */
describe('ledger audit cross-checks charges with the content log (SQLite event log, CLI)', () => {
  let k: LedgerKit;
  let seq = 0;
  let printed: string[];

  const ctx = { correlationId: 'c', teamId: 'team_a' };
  async function content(streamId: string, type: string, data: Record<string, unknown>): Promise<void> {
    const stream = await k.events.readStream(streamId);
    const metadata = {
      correlationId: 'c',
      causationId: null,
      teamId: 'team_a',
      occurredAt: k.clock.now().toISOString(),
    };
    await k.events.append(
      streamId,
      [{ id: `ev_content_${++seq}`, type, schemaVersion: 1, data, metadata }],
      stream.length === 0 ? 'no_stream' : stream.length - 1,
    );
  }
  const job = (jobId: string) =>
    content(`contentjob-${jobId}`, 'ContentJobOpened', {
      jobId,
      teamId: 'team_a',
      kind: 'posts',
      createdAt: k.clock.now().toISOString(),
      requested: 1,
    });

  /** One link added by a job and scored with comments: reserved, created, scored, settled. */
  async function chargedPost(
    jobId: string,
    postId: string,
    reservationId: string,
    link: string,
    comments: number,
  ): Promise<void> {
    await k.ledger.reserve(
      'team_a',
      { commandId: `reserve-${reservationId}`, reservationId, units: 1, unitCost: 1, source: 'auto' },
      ctx,
    );
    await content(`post-${postId}`, 'PostCreated', {
      postId,
      teamId: 'team_a',
      link,
      normalizedLink: link.replace(/^https:\/\/(www\.)?/, ''),
      platform: 'youtube',
      collectionIds: [],
      tags: [],
      addedVia: 'api',
      addedBy: { id: 'key_1', name: 'ci' },
      isDemo: false,
      dataVersion: 1,
      jobId,
      reservationId,
      creditSource: 'credit',
      unitCost: 1,
      fullRead: false,
      commentLimit: null,
      requestedAt: k.clock.now().toISOString(),
    });
    await content(`post-${postId}`, 'PostScored', {
      postId,
      dataVersion: 1,
      jobId,
      reservationId,
      scorer: { name: 'vader', version: '1' },
      topics: [],
      messages: [],
      totalComments: comments,
      at: k.clock.now().toISOString(),
    });
    if (comments > 0)
      await k.ledger.settle('team_a', { commandId: `settle-${postId}`, reservationId, consumed: 1 }, ctx);
    else
      await k.ledger.refund(
        'team_a',
        { commandId: `refund-${postId}`, reservationId, reason: 'no_comments' },
        ctx,
      );
  }

  async function run(...args: string[]): Promise<{ text: string; exitCode: number }> {
    const program = new Command('analyst').option('--json').exitOverride();
    registerLedgerCli(program, { admin: adminCall });
    process.exitCode = undefined;
    await program.parseAsync(['node', 'analyst', ...args]);
    const exitCode = Number(process.exitCode ?? 0);
    process.exitCode = undefined;
    return { text: printed.splice(0).join('\n'), exitCode };
  }
  const audit = (...args: string[]) =>
    run('ledger', 'audit', '--data-dir', k.t.dataDir, '--as-of', AS_OF, ...args);
  const auditJson = async (...args: string[]) =>
    JSON.parse(
      (await run('--json', 'ledger', 'audit', '--data-dir', k.t.dataDir, '--as-of', AS_OF, ...args)).text,
    );

  /** The ledger events of one reservation, as the log holds them. */
  async function ledgerEvent(type: string, reservationId: string): Promise<RecordedEvent> {
    const log = new SqliteEventStore({ filename: join(k.t.dataDir, 'events.db'), readonly: true });
    try {
      return (await log.readStream('ledger-team_a')).find(
        (e) => e.type === type && (e.data as { reservationId: string }).reservationId === reservationId,
      )!;
    } finally {
      await log.close();
    }
  }

  beforeAll(async () => {
    k = await ledgerKit();
    await k.createTeam('team_a', 'growth', 20);
    await job('cj_1');
    await chargedPost('cj_1', 'po_1', rid('cj_1', 1), LINK, 12);
    await chargedPost('cj_1', 'po_2', rid('cj_1', 2), 'https://youtube.com/watch?v=empty', 0);
    await k.ledger.caughtUp();
  });
  afterAll(() => k.close());
  beforeEach(() => {
    printed = [];
    jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('passes the clean log: one charge for a scored post, one refund for an empty one, nothing open', async () => {
    const { text, exitCode } = await audit();
    expect(exitCode).toBe(0);
    expect(text).toContain(
      `charges cross-checked with the post and job streams (open reservations aged as of ${AS_OF}, bound 30 min):`,
    );
    expect(text).toMatch(/^team_a\s+2\s+2\s+1\s+1\s+0\s+0\s+yes$/m);
    expect(text).toContain('open reservations: none');
    expect(text).toContain(
      'audit passed: every invariant holds, every charge and refund has its reason in the content log, and the read models match the log',
    );
    const report = await auditJson();
    expect(report.ok).toBe(true);
    expect(report.charges).toEqual({
      asOf: AS_OF,
      maxOpenMinutes: 30,
      teams: [{ teamId: 'team_a', posts: 2, reservations: 2, settled: 1, refunded: 1, open: 0, findings: 0 }],
      open: [],
      findings: [],
    });
  });

  describe('after the same link was added again as a second post and charged again', () => {
    beforeAll(async () => {
      k.clock.set('2026-03-10T12:03:00.000Z');
      await job('cj_2');
      await chargedPost('cj_2', 'po_3', rid('cj_2', 1), 'https://youtube.com/watch?v=dQw4w9WgXcQ', 12);
      // And a request that reserved and never ended: open 7 minutes at AS_OF.
      await k.ledger.reserve(
        'team_a',
        { commandId: 'reserve-open', reservationId: rid('cj_2', 2), units: 1, unitCost: 1, source: 'auto' },
        ctx,
      );
      await k.ledger.caughtUp();
    });

    it('fails with exit code 1, naming the team, the link, both posts and both charges with their positions', async () => {
      const first = await ledgerEvent('CreditsSettled', rid('cj_1', 1));
      const second = await ledgerEvent('CreditsSettled', rid('cj_2', 1));
      const message =
        `link ${NORMAL} is 2 posts of team team_a, charged 2 times: ` +
        `po_1 (charged through ${rid('cj_1', 1)}, CreditsSettled ${first.id} at position ${first.position}), ` +
        `po_3 (charged through ${rid('cj_2', 1)}, CreditsSettled ${second.id} at position ${second.position})`;

      const { text, exitCode } = await audit();
      expect(exitCode).toBe(1);
      expect(text).toMatch(/^team_a\s+3\s+4\s+2\s+1\s+1\s+1\s+NO$/m);
      expect(text).toMatch(
        new RegExp(
          `^team_a\\s+${rid('cj_2', 2)}\\s+\\d+\\s+2026-03-10T12:03:00.000Z\\s+7\\s+1\\s+-\\s+-\\s+no$`,
          'm',
        ),
      );
      expect(text).toContain('audit FAILED: 1 problem(s)');
      expect(text).toContain(`\n  team team_a: duplicate_post: ${message}`);

      const report = await auditJson();
      expect(report.ok).toBe(false);
      expect(report.violations).toEqual([]); // the arithmetic holds: only the reasons are wrong
      const at = (e: RecordedEvent) => ({
        reservationId: (e.data as { reservationId: string }).reservationId,
        eventId: e.id,
        type: e.type,
        position: e.position,
        revision: e.revision,
        occurredAt: e.metadata.occurredAt,
      });
      expect(report.charges.findings).toEqual([
        {
          rule: 'duplicate_post',
          teamId: 'team_a',
          posts: [
            { postId: 'po_1', teamId: 'team_a', link: LINK, normalizedLink: NORMAL, dataVersion: null },
            {
              postId: 'po_3',
              teamId: 'team_a',
              link: 'https://youtube.com/watch?v=dQw4w9WgXcQ',
              normalizedLink: NORMAL,
              dataVersion: null,
            },
          ],
          events: [at(first), at(second)],
          message,
        },
      ]);
      expect(report.charges.open).toEqual([
        expect.objectContaining({ reservationId: rid('cj_2', 2), ageMinutes: 7, stale: false, post: null }),
      ]);
    });

    it('--max-open-minutes 5 also fails the reservation left open; --ledger-only keeps the arithmetic audit alone', async () => {
      const strict = await auditJson('--max-open-minutes', '5');
      expect(strict.charges.findings.map((f: { rule: string }) => f.rule)).toEqual([
        'duplicate_post',
        'stale_open_reservation',
      ]);
      const reserved = await ledgerEvent('CreditsReserved', rid('cj_2', 2));
      expect(strict.charges.findings[1].message).toBe(
        `reservation ${rid('cj_2', 2)} (CreditsReserved ${reserved.id} at position ${reserved.position}, 1 credits) has been open 7 min, longer than 5 min`,
      );
      const arithmetic = await audit('--ledger-only');
      expect(arithmetic.exitCode).toBe(0);
      expect(arithmetic.text).not.toContain('charges cross-checked');
      await expect(audit('--max-open-minutes', '0')).rejects.toThrow(
        '--max-open-minutes must be a whole number from 1 to',
      );
      await expect(run('ledger', 'audit', '--data-dir', k.t.dataDir, '--as-of', 'yesterday')).rejects.toThrow(
        '--as-of must be an ISO 8601 instant',
      );
    });

    it('the real entry point exits 1 with the finding in its --json report', async () => {
      const result = await promisify(execFile)(
        process.execPath,
        [
          '-r',
          '@swc-node/register',
          join(ROOT, 'tools/analyst-cli.ts'),
          '--json',
          'ledger',
          'audit',
          '--data-dir',
          k.t.dataDir,
          '--as-of',
          AS_OF,
          '--team',
          'team_a',
        ],
        { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      ).then(
        () => ({ code: 0, stdout: '' }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout);
      expect(
        report.charges.findings.map((f: { rule: string; teamId: string; posts: { postId: string }[] }) => [
          f.rule,
          f.teamId,
          f.posts.map((p) => p.postId),
        ]),
      ).toEqual([['duplicate_post', 'team_a', ['po_1', 'po_3']]]);
    }, 60_000);
  });
});
