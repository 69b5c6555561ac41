import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import type { CreditBalances, StatementLine } from '@analyst/contracts';
import { SqliteEventStore } from '@analyst/platform';
import { TEST_ADMIN_TOKEN } from '@analyst/testing';
import { HashChain, LEDGER_STATEMENT, readStatement, type LedgerStatementDoc } from '@analyst/ledger';
import { adminCall } from '../../gateway/src/cli/admin-client';
import { registerLedgerCli } from '../src/cli/ledger-cli';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';

const ROOT = join(__dirname, '../../..');
const KEY = 'statement-key-0123456789';

type StatementRecord = Record<string, unknown> & {
  kind: string;
  line?: StatementLine;
  teams?: Record<string, { lines: number; revision: number; balances: CreditBalances }>;
};

/** Statement records without their chain fields (and without the end record's HMAC). */
function recordsOf(path: string): StatementRecord[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((text) => {
      const { prev: _p, hash: _h, hmac: _m, ...body } = JSON.parse(text) as StatementRecord;
      return body as StatementRecord;
    });
}

/** What a forger with the format in hand does: re-link every record so the chain holds again. */
function rechain(records: StatementRecord[]): string {
  const chain = new HashChain();
  return `${records.map((r) => JSON.stringify(chain.link(r))).join('\n')}\n`;
}

/** The careful forger: balances recomputed from the changes, the end record's totals too. */
function recompute(records: StatementRecord[]): StatementRecord[] {
  const running = new Map<string, { lines: number; revision: number; balances: CreditBalances }>();
  return records.map((r) => {
    if (r.kind === 'line') {
      const line = r.line!;
      const before = running.get(line.teamId) ?? {
        lines: 0,
        revision: -1,
        balances: { maps: 0, adhoc: 0, reserved: 0 },
      };
      const balances = {
        maps: before.balances.maps + line.change.maps,
        adhoc: before.balances.adhoc + line.change.adhoc,
        reserved: before.balances.reserved + line.change.reserved,
      };
      running.set(line.teamId, { lines: before.lines + 1, revision: line.revision, balances });
      return { ...r, line: { ...line, balances } };
    }
    if (r.kind === 'end')
      return {
        ...r,
        lines: [...running.values()].reduce((n, t) => n + t.lines, 0),
        teams: Object.fromEntries(running),
      };
    return r;
  });
}

async function activity(k: LedgerKit): Promise<void> {
  await k.createTeam('team_a', 'growth', 20);
  await k.createTeam('team_b', 'scale', 5);
  for (const teamId of ['team_a', 'team_b']) {
    const ctx = { correlationId: 'c', teamId };
    await k.ledger.grant(
      teamId,
      { commandId: `g-${teamId}`, pool: 'adhoc', amount: 50, reason: 'purchase' },
      ctx,
    );
    for (let i = 0; i < 6; i++) {
      await k.ledger.reserve(
        teamId,
        { commandId: `r${i}`, reservationId: `p${i}`, units: 3, unitCost: i % 2 ? 1 : 5, source: 'auto' },
        ctx,
      );
      if (i % 3 === 0)
        await k.ledger.refund(teamId, { commandId: `f${i}`, reservationId: `p${i}`, reason: 'failed' }, ctx);
      else if (i % 3 === 1)
        await k.ledger.settle(teamId, { commandId: `s${i}`, reservationId: `p${i}`, consumed: 2 }, ctx);
    }
  }
  await k.ledger.caughtUp();
}

describe('analyst ledger CLI: audit, verify, lines, credits grant', () => {
  let k: LedgerKit;
  let dir: string;
  let url: string;
  let printed: string[];

  beforeAll(async () => {
    k = await ledgerKit();
    dir = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
    await activity(k);
    await k.t.app.listen({ port: 0, host: '127.0.0.1' });
    url = await k.t.app.getUrl();
  });
  afterAll(async () => {
    await k.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    printed = [];
    process.exitCode = undefined;
    jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    process.exitCode = undefined;
  });

  /** Runs one command in-process; returns what it printed and the exit code it set. */
  async function run(...args: string[]): Promise<{ text: string; exitCode: number }> {
    const program = new Command('analyst').option('--json').exitOverride();
    registerLedgerCli(program, { admin: adminCall });
    process.exitCode = undefined;
    await program.parseAsync(['node', 'analyst', ...args]);
    const exitCode = Number(process.exitCode ?? 0);
    process.exitCode = undefined;
    return { text: printed.splice(0).join('\n'), exitCode };
  }

  // These logs hold ledger events only (no posts): the charge cross-check has its own tests.
  const audit = (...args: string[]) =>
    run('ledger', 'audit', '--ledger-only', '--data-dir', k.t.dataDir, ...args);

  async function exported(name: string, ...args: string[]): Promise<{ path: string; head: string }> {
    const path = join(dir, name);
    const { text, exitCode } = await audit('--out', path, ...args);
    expect(exitCode).toBe(0);
    return { path, head: /chain head: ([0-9a-f]{64})/.exec(text)![1] };
  }

  function forged(name: string, records: StatementRecord[]): string {
    const path = join(dir, name);
    writeFileSync(path, rechain(records));
    return path;
  }

  describe('ledger verify', () => {
    it('passes an untouched statement; audit prints the chain head to record and verify --head matches it', async () => {
      const path = join(dir, 'clean.jsonl');
      const { text, exitCode } = await audit('--out', path);
      expect(exitCode).toBe(0);
      expect(text).toMatch(/^ {2}chain head: [0-9a-f]{64}$/m);
      expect(text).toContain('Record this chain head where whoever holds the statement cannot change it');
      const head = /chain head: ([0-9a-f]{64})/.exec(text)![1];
      expect(text).toContain(`analyst ledger verify ${path} --head ${head}`);

      const plain = await run('ledger', 'verify', path);
      expect(plain.exitCode).toBe(0);
      expect(plain.text).toContain(`statement verified: `);
      expect(plain.text).toContain('of 2 team(s)');
      expect(plain.text).toContain(
        'note: the chain and the arithmetic hold, but a statement rewritten whole',
      );
      const pinned = await run('ledger', 'verify', path, '--head', head);
      expect(pinned).toEqual({ text: expect.stringContaining('(chain head matches --head)'), exitCode: 0 });
      expect(pinned.text).not.toContain('note:');
      const json = JSON.parse((await run('--json', 'ledger', 'verify', path, '--head', head)).text);
      expect(json).toMatchObject({ ok: true, head, headCheck: 'matched', signature: 'unsigned', teams: 2 });
    });

    it('fails a CreditsGranted line changed to adhoc +5000 with its balances left at 50 and the chain recomputed, naming the line', async () => {
      const { path } = await exported('for-grant.jsonl');
      const records = recordsOf(path);
      const at = records.findIndex(
        (r) => r.kind === 'line' && r.line!.type === 'CreditsGranted' && r.line!.change.adhoc === 50,
      );
      const line = records[at].line!;
      expect(line.balances.adhoc).toBe(50);
      records[at] = { ...records[at], line: { ...line, change: { ...line.change, adhoc: 5000 } } };
      const result = await run('ledger', 'verify', forged('grant-5000.jsonl', records));
      expect(result.exitCode).toBe(1);
      expect(result.text).toBe(
        `statement FAILED verification at line ${at + 1}: statement line ${records[at].seq}: team team_a revision ${line.revision} (CreditsGranted): adhoc balance 50 is not the previous 0 plus the change 5000 (= 5000)`,
      );
    });

    it('fails when the last line is dropped and the end record recounted with the chain recomputed', async () => {
      const { path } = await exported('for-drop.jsonl');
      const records = recordsOf(path);
      const end = records[records.length - 1];
      const kept = [...records.slice(0, -2), { ...end, lines: (end.lines as number) - 1 }];
      const result = await run('ledger', 'verify', forged('dropped-last.jsonl', kept));
      expect(result.exitCode).toBe(1);
      expect(result.text).toMatch(
        new RegExp(
          `^statement FAILED verification at line ${kept.length}: the end record disagrees with the lines: team team_b: it counts \\d+ lines to revision \\d+, the lines \\d+ to revision \\d+ \\(lines were dropped or added\\)$`,
        ),
      );
    });

    it('fails a line whose change its event type cannot make, even with every later figure recomputed', async () => {
      const { path } = await exported('for-kind.jsonl');
      const records = recordsOf(path);
      const at = records.findIndex((r) => r.kind === 'line' && r.line!.type === 'CreditsReserved');
      records[at] = {
        ...records[at],
        line: { ...records[at].line!, change: { maps: 0, adhoc: 0, reserved: 1 } },
      };
      const result = await run('ledger', 'verify', forged('reserve-from-nothing.jsonl', recompute(records)));
      expect(result.exitCode).toBe(1);
      expect(result.text).toContain(`at line ${at + 1}: `);
      expect(result.text).toContain('a reservation moves credits from the pools to reserved');
    });

    it('a statement rewritten whole (last line dropped, figures, totals and chain recomputed) fails with --head and with --key', async () => {
      const { path, head } = await exported('for-rewrite.jsonl', '--key', KEY);
      const records = recordsOf(path);
      const rewritten = forged(
        'rewritten.jsonl',
        recompute([...records.slice(0, -2), records[records.length - 1]]),
      );
      // The format alone cannot tell: that is what the recorded head and the key are for.
      expect((await run('ledger', 'verify', rewritten)).exitCode).toBe(0);
      const pinned = await run('ledger', 'verify', rewritten, '--head', head);
      expect(pinned.exitCode).toBe(1);
      expect(pinned.text).toContain(`is not the recorded head ${head}: the statement was rewritten`);
      const keyed = await run('ledger', 'verify', rewritten, '--key', KEY);
      expect(keyed.exitCode).toBe(1);
      expect(keyed.text).toContain('the end record is not signed, but a key was given');
    });

    it('--key signs the end record: verify --key (or ANALYST_STATEMENT_KEY) accepts it, another key fails', async () => {
      const { path, head } = await exported('signed.jsonl', '--key', KEY);
      const end = JSON.parse(readFileSync(path, 'utf8').trimEnd().split('\n').pop()!);
      expect(end).toMatchObject({ kind: 'end', hash: head, hmac: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(await run('ledger', 'verify', path, '--key', KEY)).toEqual({
        text: expect.stringContaining('end record HMAC valid'),
        exitCode: 0,
      });
      const unkeyed = await run('ledger', 'verify', path);
      expect(unkeyed.exitCode).toBe(0);
      expect(unkeyed.text).toContain('or --key (the statement is signed)');
      const wrong = await run('ledger', 'verify', path, '--key', 'another-key-0123456789');
      expect(wrong.exitCode).toBe(1);
      expect(wrong.text).toContain('the end record HMAC does not match this key');
      const env = process.env.ANALYST_STATEMENT_KEY;
      process.env.ANALYST_STATEMENT_KEY = KEY;
      try {
        expect((await run('ledger', 'verify', path)).text).toContain('end record HMAC valid');
      } finally {
        if (env === undefined) delete process.env.ANALYST_STATEMENT_KEY;
        else process.env.ANALYST_STATEMENT_KEY = env;
      }
      await expect(run('ledger', 'verify', path, '--head', 'abc')).rejects.toThrow(
        '--head must be the 64-hex-digit chain head',
      );
      await expect(audit('--out', join(dir, 'short.jsonl'), '--key', 'short')).rejects.toThrow(
        'at least 16 characters',
      );
    });

    it('refuses a .csv statement and points to the JSONL export', async () => {
      const path = join(dir, 'sheet.csv');
      const { text, exitCode } = await audit('--out', path);
      expect(exitCode).toBe(0);
      expect(text).toContain('cannot check it; export .jsonl for a verifiable statement');
      expect(text).not.toContain('chain head:');
      const result = await run('ledger', 'verify', path);
      expect(result.exitCode).toBe(1);
      expect(result.text).toBe(
        'statement FAILED verification at line 1: this is a .csv statement: a spreadsheet view that carries the line hashes but not the header and end records of the chain, so it cannot be verified; verify the JSONL export (`ledger audit --out statement.jsonl`)',
      );
      // Renamed, it is still recognised by its header row.
      writeFileSync(join(dir, 'sheet.txt'), readFileSync(path));
      expect((await run('ledger', 'verify', join(dir, 'sheet.txt'))).text).toContain(
        'this is a .csv statement',
      );
      await expect(audit('--out', join(dir, 'signed.csv'), '--key', KEY)).rejects.toThrow(
        'a .csv export has none',
      );
    });
  });

  describe('ledger audit', () => {
    it('fails for a team id with no ledger events in the log', async () => {
      const readable = await audit('--team', 'tm_nope');
      expect(readable.exitCode).toBe(1);
      expect(readable.text).toContain('audit FAILED: 1 problem(s)');
      expect(readable.text).toContain('\n  team tm_nope has no ledger events in this log');
      expect(readable.text).not.toContain('audit passed');
      const report = JSON.parse(
        (
          await run(
            '--json',
            'ledger',
            'audit',
            '--ledger-only',
            '--data-dir',
            k.t.dataDir,
            '--team',
            'tm_nope',
          )
        ).text,
      );
      expect(report).toMatchObject({
        ok: false,
        ledgerEvents: 0,
        violations: [{ teamId: 'tm_nope', message: 'team tm_nope has no ledger events in this log' }],
      });
    });

    it('--against compares the recomputed balances with those the running server serves', async () => {
      const clean = await audit('--against', url, '--admin-token', TEST_ADMIN_TOKEN);
      expect(clean.exitCode).toBe(0);
      expect(clean.text).toContain(`served balances read from ${url}`);
      expect(clean.text).toContain(`served by ${url}`);
      expect(clean.text).toMatch(/^team_a\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+0\s+yes$/m);
      expect(clean.text).toContain(
        'audit passed: every invariant holds (charges not cross-checked: --ledger-only), and the read models and the served balances match the log',
      );
      const report = JSON.parse(
        (
          await run(
            '--json',
            'ledger',
            'audit',
            '--ledger-only',
            '--data-dir',
            k.t.dataDir,
            '--against',
            url,
            '--admin-token',
            TEST_ADMIN_TOKEN,
          )
        ).text,
      );
      expect(report.servedBy).toBe(url);
      for (const c of report.served)
        expect(c).toMatchObject({
          ok: true,
          served: c.recomputed,
          servedLines: c.revision + 1,
          newerLines: 0,
        });
      await expect(audit('--against', url, '--admin-token', 'wrong-token-0123456789')).rejects.toMatchObject({
        status: 401,
      });
    });

    it('--against names a team whose served balance differs from the log', async () => {
      const chunks = k.store.collection<LedgerStatementDoc>(LEDGER_STATEMENT);
      const [last] = await chunks.find({ teamId: 'team_b' }, { sort: { chunk: -1 }, limit: 1 });
      const original = structuredClone(last);
      const lines = last.lines.map((l, i) =>
        i === last.lines.length - 1 ? { ...l, change: { ...l.change, adhoc: l.change.adhoc + 7 } } : l,
      );
      await chunks.replaceOne({ _id: last._id }, { ...last, lines });
      try {
        const { text, exitCode } = await audit('--against', url, '--admin-token', TEST_ADMIN_TOKEN);
        expect(exitCode).toBe(1);
        expect(text).toMatch(/^team_b\s+.*\s+NO$/m);
        expect(text).toMatch(
          /^ {2}team team_b: served by http:\/\/127\.0\.0\.1:\d+: it serves maps \d+ \/ adhoc \d+ \/ reserved \d+ after revision \d+ but the log gives/m,
        );
        expect(text).not.toMatch(/team team_a: served/);
      } finally {
        await chunks.replaceOne({ _id: last._id }, original);
      }
    });

    it('--against names a logged event the server has not served', async () => {
      const copyDir = mkdtempSync(join(tmpdir(), 'ledger-cli-copy-'));
      const copy = new SqliteEventStore({ filename: join(copyDir, 'events.db') });
      const log = new SqliteEventStore({ filename: join(k.t.dataDir, 'events.db'), readonly: true });
      for await (const page of log.readAll()) for (const e of page) await copy.append(e.streamId, [e], 'any');
      await log.close();
      const stream = await copy.readStream('ledger-team_a');
      const month = (stream[stream.length - 1].data as { month: string }).month;
      await copy.append(
        'ledger-team_a',
        [
          {
            id: 'ev_only_in_copy',
            type: 'CreditsGranted',
            schemaVersion: 1,
            data: { commandId: 'copy-grant', month, pool: 'adhoc', amount: 3, reason: 'copy' },
            metadata: { ...stream[0].metadata },
          },
        ],
        stream.length - 1,
      );
      await copy.close();
      try {
        const { text, exitCode } = await run(
          'ledger',
          'audit',
          '--ledger-only',
          '--data-dir',
          copyDir,
          '--against',
          url,
          '--admin-token',
          TEST_ADMIN_TOKEN,
        );
        expect(exitCode).toBe(1);
        expect(text).toContain(
          `team team_a: served by ${url}: the served statement ends at revision ${stream.length - 1} but the log has revision ${stream.length}`,
        );
      } finally {
        rmSync(copyDir, { recursive: true, force: true });
      }
    });
  });

  describe('ledger lines and credits grant (admin API)', () => {
    const admin = (...args: string[]) => run(...args, '--url', url, '--token', TEST_ADMIN_TOKEN);

    it('credits grant adds credits once per idempotency key, readable and as JSON', async () => {
      const before = await k.ledger.balances('team_a');
      const granted = await admin(
        'credits',
        'grant',
        'team_a',
        '--pool',
        'adhoc',
        '--amount',
        '25',
        '--reason',
        'invoice 7',
        '--idempotency-key',
        'inv-7',
      );
      expect(granted.exitCode).toBe(0);
      expect(granted.text).toBe(
        `granted 25 Ad Hoc credits to team team_a (idempotency key inv-7)\nbalances: maps ${before.maps} / adhoc ${before.adhoc + 25} / reserved ${before.reserved}`,
      );
      const again = JSON.parse(
        (
          await admin(
            '--json',
            'credits',
            'grant',
            'team_a',
            '--pool',
            'adhoc',
            '--amount',
            '25',
            '--reason',
            'invoice 7',
            '--idempotency-key',
            'inv-7',
          )
        ).text,
      );
      expect(again).toEqual({
        data: {
          teamId: 'team_a',
          pool: 'adhoc',
          amount: 25,
          balances: { ...before, adhoc: before.adhoc + 25 },
        },
      });
      const maps = JSON.parse(
        (await admin('--json', 'credits', 'grant', 'team_a', '--pool', 'map', '--amount', '4')).text,
      );
      expect(maps.data.balances.maps).toBe(before.maps + 4);
      const [line] = (await readStatement(k.store, 'team_a', { limit: 1000 })).data.slice(-1);
      expect(line.note).toContain('granted with the analyst CLI');
      await expect(admin('credits', 'grant', 'team_a', '--pool', 'gold', '--amount', '4')).rejects.toThrow(
        '--pool must be map or adhoc',
      );
      await expect(admin('credits', 'grant', 'team_a', '--pool', 'map', '--amount', '2.5')).rejects.toThrow(
        '--amount must be a whole number from 1 to 1000000000',
      );
      await expect(
        admin('credits', 'grant', 'team_zz', '--pool', 'map', '--amount', '1'),
      ).rejects.toMatchObject({ status: 404, code: 'team_not_found' });
      // The statement and the served balances still agree with the log after the grants.
      expect((await audit('--against', url, '--admin-token', TEST_ADMIN_TOKEN)).exitCode).toBe(0);
    });

    it('ledger lines prints the served statement, pages with --limit and --cursor, and --json keeps the route shape', async () => {
      const all = JSON.parse((await admin('--json', 'ledger', 'lines', 'team_b', '--limit', '5000')).text);
      expect(all.meta).toEqual({ nextCursor: null, hasMore: false });
      const total = all.data.length;
      expect(all.data.map((l: StatementLine) => l.revision)).toEqual([...Array(total).keys()]);

      const first = await admin('ledger', 'lines', 'team_b', '--limit', '3');
      const rows = first.text.split('\n');
      expect(rows[0]).toMatch(/^revision\s+occurredAt\s+type\s+change\s+maps\s+adhoc\s+reserved\s+note$/);
      expect(rows).toHaveLength(5);
      const grant = all.data.find((l: StatementLine) => l.type === 'CreditsGranted');
      const cursor = /more with --cursor (\S+)$/.exec(rows[4])![1];
      expect(rows[4]).toBe(`3 lines; more with --cursor ${cursor}`);
      const rest = await admin('ledger', 'lines', 'team_b', '--cursor', cursor, '--limit', '1000');
      expect(rest.text).toMatch(new RegExp(`^${total - 3} lines, to the end of the statement$`, 'm'));
      expect(`${first.text}\n${rest.text}`).toMatch(
        new RegExp(`^ *${grant.revision}\\s+\\S+\\s+CreditsGranted\\s+adhoc \\+50\\s+`, 'm'),
      );
      const paged = JSON.parse((await admin('--json', 'ledger', 'lines', 'team_b', '--limit', '2')).text);
      expect(paged).toEqual({
        data: all.data.slice(0, 2),
        meta: { nextCursor: expect.any(String), hasMore: true },
      });
      await expect(admin('ledger', 'lines', 'team_zz')).rejects.toThrow(
        'GET /admin/v1/teams/team_zz/ledger?limit=100 failed with 404: team team_zz not found',
      );
      await expect(admin('ledger', 'lines', 'team_b', '--limit', '0')).rejects.toThrow(
        '--limit must be a whole number',
      );
    });

    it('with --json, the real CLI prints a failure as a JSON object on stderr and exits 1', async () => {
      const cli = (...args: string[]) =>
        promisify(execFile)(
          process.execPath,
          ['-r', '@swc-node/register', join(ROOT, 'tools/analyst-cli.ts'), ...args],
          {
            cwd: ROOT,
            env: { ...process.env, ANALYST_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
          },
        ).then(
          ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
          (error: { code: number; stdout: string; stderr: string }) => ({
            code: error.code,
            stdout: error.stdout,
            stderr: error.stderr,
          }),
        );
      const notFound = await cli('--json', 'ledger', 'lines', 'tm_nope', '--url', url);
      expect(notFound).toMatchObject({ code: 1, stdout: '' });
      expect(JSON.parse(notFound.stderr)).toEqual({
        error: {
          status: 404,
          code: 'team_not_found',
          message: 'GET /admin/v1/teams/tm_nope/ledger?limit=100 failed with 404: team tm_nope not found',
        },
      });
      const usage = await cli('--json', 'credits', 'grant', 'team_a', '--url', url, '--amount', '1');
      expect(usage.code).toBe(1);
      expect(JSON.parse(usage.stderr)).toEqual({
        error: {
          status: null,
          code: 'invalid_argument',
          message: "required option '--pool <pool>' not specified",
        },
      });
      const noEvents = await cli('--json', 'ledger', 'audit', '--data-dir', join(dir, 'nowhere'));
      expect(noEvents.code).toBe(1);
      expect(JSON.parse(noEvents.stderr).error).toMatchObject({
        status: null,
        code: 'cli_error',
        message: expect.stringContaining('no event log at'),
      });
      const plain = await cli('ledger', 'lines', 'tm_nope', '--url', url);
      expect(plain).toMatchObject({
        code: 1,
        stderr: 'GET /admin/v1/teams/tm_nope/ledger?limit=100 failed with 404: team tm_nope not found\n',
      });
      // Four CLI processes, each compiling its sources on start: far slower than jest's 5 s default on a busy machine.
    }, 60_000);
  });
});
