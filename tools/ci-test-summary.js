#!/usr/bin/env node
// Adds up what the test runners in a CI log reported and prints one closing line in jest's own
// summary format, "Tests:       N failed, N skipped, N passed, N total", so the log's last line (which
// tools reading CI logs parse as jest's) covers the whole run: jest's per-project "Tests:" lines
// (nx prefixes and colours them) and Schemathesis's "Test cases:".
'use strict';
const fs = require('node:fs');

// eslint-disable-next-line no-control-regex -- ANSI colour codes are what is stripped
const ansi = /\u001b\[[0-9;]*m/g;
const totals = { passed: 0, failed: 0, skipped: 0 };
let runs = 0;

function add(line) {
  for (const kind of Object.keys(totals)) {
    const m = line.match(new RegExp(`(\\d+) ${kind}`));
    if (m) totals[kind] += Number(m[1]);
  }
  runs += 1;
}

for (const file of process.argv.slice(2)) {
  const lines = fs.readFileSync(file, 'utf8').replace(ansi, '').split('\n');
  lines.forEach((line, i) => {
    // jest: "Tests:       1 skipped, 192 passed, 193 total"
    if (/(^|:\s*)Tests:\s+.*\btotal\b/.test(line)) add(line.slice(line.indexOf('Tests:')));
    // schemathesis: "Test cases:" then "  2636 generated, 2636 passed, 51 skipped"
    if (/^Test cases:\s*$/.test(line.trim()) && lines[i + 1]) add(lines[i + 1]);
  });
}

if (runs === 0) {
  console.error('test-summary: no test runner summary found in', process.argv.slice(2).join(' '));
  process.exit(1);
}
const parts = [];
if (totals.failed > 0) parts.push(`${totals.failed} failed`);
if (totals.skipped > 0) parts.push(`${totals.skipped} skipped`);
parts.push(`${totals.passed} passed`, `${totals.passed + totals.failed + totals.skipped} total`);
console.log(`Tests:       ${parts.join(', ')}`);
process.exit(totals.failed > 0 ? 1 : 0);
