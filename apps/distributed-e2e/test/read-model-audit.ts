import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ReadModelCheckReport } from '@analyst/platform';
import { ROOT } from './cluster';

/** Collections every suite's traffic writes: the check must have compared documents in each. */
export const COLLECTIONS_WITH_TRAFFIC = [
  'identity_teams',
  'identity_api_keys',
  'posts',
  'content_jobs',
  'ledger_balances',
  'ledger_statement',
  'analysis_teams',
  'analysis_posts',
  'comment_chunks',
  'comment_scores',
  'post_analyses',
];

/**
 * `analyst --json read-models check` as an operator runs it, against the cluster's own stores (its
 * environment names the log and the read store): every shared read model of every service compared
 * with the log. Returns the report; a difference makes the command exit 1, which is not thrown here
 * so the test can print what differed.
 */
export async function readModelCheck(
  env: Record<string, string>,
): Promise<{ report: ReadModelCheckReport; status: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      join(ROOT, 'tools/analyst-cli.ts'),
      '--json',
      'read-models',
      'check',
      // The services were just quiet: give a replica's last writes a few seconds to land.
      '--settle-ms',
      '1000',
      '--rounds',
      '10',
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!stdout.trim()) throw new Error(`read-models check printed no report (exit ${status}):\n${stderr}`);
  return { report: JSON.parse(stdout) as ReadModelCheckReport, status, stderr };
}

/** The checks a suite makes of the report after its faults: equal to the log, nothing left behind. */
export function expectReadModelsEqualToLog(result: Awaited<ReturnType<typeof readModelCheck>>): void {
  const { report, status } = result;
  if (!report.ok)
    throw new Error(`read models differ from the log:\n${JSON.stringify(report.differences, null, 2)}`);
  expect(status).toBe(0);
  expect(report.differences).toEqual([]);
  // Quiet services: every document caught up within the check's rounds.
  expect(report.lag).toEqual([]);
  for (const name of COLLECTIONS_WITH_TRAFFIC) {
    const collection = report.collections.find((c) => c.collection === name);
    expect(collection).toBeDefined();
    expect(collection!.expected).toBeGreaterThan(0);
    expect(collection!.live).toBe(collection!.expected);
  }
}
