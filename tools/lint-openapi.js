#!/usr/bin/env node
// Redocly lint (recommended ruleset) of the OpenAPI document the client package ships, which the
// client's tests keep identical to the one the server serves. Fails on any error or warning, since
// `redocly lint` itself exits 0 when only warnings are found.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const document = process.argv[2] ?? join(root, 'libs/client/openapi.json');
const bin = join(root, 'node_modules/.bin/redocly');
let output;
try {
  output = execFileSync(bin, ['lint', document, '--extends', 'recommended', '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
} catch (error) {
  output = error.stdout ?? '';
}
const start = output.indexOf('{');
if (start < 0) {
  console.error(`redocly lint printed no report for ${document}`);
  process.exit(1);
}
const report = JSON.parse(output.slice(start));
const { errors, warnings } = report.totals;
for (const problem of report.problems) {
  const where = problem.location?.map((l) => l.pointer).join(', ') ?? '';
  console.error(`${problem.severity} ${problem.ruleId}: ${problem.message} ${where}`);
}
console.log(`redocly lint (recommended) ${document}: ${errors} errors, ${warnings} warnings`);
process.exit(errors + warnings === 0 ? 0 : 1);
