import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@analyst/platform';
import { auditLedger } from '@analyst/ledger';

const CHILD = join(__dirname, 'crash', 'crash-child.ts');
const LOADER = join(__dirname, 'crash', 'ts-loader.js');

interface Run {
  acks: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the child; with `killAfterMs`, SIGKILLs it that long after its first acknowledgement. */
function runChild(dataDir: string, from: number, count: number, killAfterMs?: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', LOADER, CHILD, dataDir, String(from), String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: string[] = [];
    let buffer = '';
    let stderr = '';
    let timer: NodeJS.Timeout | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('ACK ')) continue;
        acks.push(line.slice(4));
        if (killAfterMs !== undefined && !timer) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ acks, code, signal, stderr });
    });
  });
}

/** How many ledger events each `teamId commandId` produced, read straight from the log. */
async function eventsPerCommand(dataDir: string): Promise<Map<string, number>> {
  const log = new SqliteEventStore({ filename: join(dataDir, 'events.db'), readonly: true });
  const counts = new Map<string, number>();
  for await (const page of log.readAll()) {
    for (const e of page) {
      if (!e.streamId.startsWith('ledger-') || e.type === 'MapsReset') continue;
      const key = `${e.streamId.slice('ledger-'.length)} ${(e.data as { commandId: string }).commandId}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  await log.close();
  return counts;
}

async function audit(dataDir: string) {
  const log = new SqliteEventStore({ filename: join(dataDir, 'events.db'), readonly: true });
  try {
    return await auditLedger(log, { charges: false });
  } finally {
    await log.close();
  }
}

describe('ledger survives SIGKILL with commands in flight', () => {
  jest.setTimeout(120_000);

  it.each([1, 2, 3])(
    'crash %i: every acknowledged command is in the log exactly once, a restart repeats nothing, and the audit passes',
    async (round) => {
      const dataDir = mkdtempSync(join(tmpdir(), `ledger-crash-${round}-`));
      try {
        const killAfter = 150 + Math.floor(Math.random() * 600);
        const killed = await runChild(dataDir, 0, 100_000, killAfter);
        expect(killed.signal).toBe('SIGKILL');
        expect(killed.acks.length).toBeGreaterThan(0);

        const counts = await eventsPerCommand(dataDir);
        for (const acked of killed.acks) expect([acked, counts.get(acked)]).toEqual([acked, 1]);
        const before = await audit(dataDir);
        expect(before.violations).toEqual([]);

        // Restart: re-send the same commands (a client retrying whatever it had in flight), then go on.
        const lastIteration = Math.max(...killed.acks.map((a) => Number(/ [rsfg](\d+)$/.exec(a)?.[1] ?? 0)));
        const restarted = await runChild(dataDir, 0, lastIteration + 20);
        expect(restarted.stderr).toBe('');
        expect(restarted.code).toBe(0);
        const after = await eventsPerCommand(dataDir);
        for (const [command, n] of after) expect([command, n]).toEqual([command, 1]);
        for (const acked of killed.acks) expect(after.get(acked)).toBe(1);

        const report = await audit(dataDir);
        expect(report.violations).toEqual([]);
        expect(report.ok).toBe(true);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
