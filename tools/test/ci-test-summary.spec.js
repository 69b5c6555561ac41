/* global describe, it, expect */
// The closing line CI prints: jest's and Schemathesis's counts added up from their logs.
const { execFileSync, spawnSync } = require('node:child_process');
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const script = join(__dirname, '..', 'ci-test-summary.js');
const dir = mkdtempSync(join(tmpdir(), 'ci-summary-'));
const file = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('tools/ci-test-summary.js', () => {
  it('adds up nx-prefixed, coloured jest summaries and Schemathesis test cases into one jest-format line', () => {
    const jest = file(
      'jest.log',
      [
        '@analyst/platform: \u001b[1mTests:       \u001b[22m\u001b[1m\u001b[33m1 skipped\u001b[39m\u001b[22m, \u001b[1m\u001b[32m192 passed\u001b[39m\u001b[22m, 193 total',
        '@analyst/ingest: Tests:       40 passed, 40 total',
        'Tests: 3 passed, 3 total',
      ].join('\n'),
    );
    const schemathesis = file('st.log', 'Test cases:\n  2636 generated, 2636 passed, 51 skipped\n\n===== 3 warnings in 16.12s =====\n');
    expect(execFileSync(process.execPath, [script, jest, schemathesis], { encoding: 'utf8' })).toBe('Tests:       52 skipped, 2871 passed, 2923 total\n');
  });

  it('exits 1 when a runner reported failures, and when it finds no summary at all', () => {
    const failing = spawnSync(process.execPath, [script, file('f.log', 'Tests:       2 failed, 5 passed, 7 total\n')], { encoding: 'utf8' });
    expect([failing.status, failing.stdout]).toEqual([1, 'Tests:       2 failed, 5 passed, 7 total\n']);
    const empty = spawnSync(process.execPath, [script, file('e.log', 'nothing ran\n')], { encoding: 'utf8' });
    expect(empty.status).toBe(1);
  });
});
