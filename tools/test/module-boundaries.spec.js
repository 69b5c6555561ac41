/* global describe, it, expect, beforeAll */
// The layer rules of eslint.config.mjs (issue 19) fail `npm run lint`: ESLint's Node API lints
// snippets as if they were files of the named projects, with the repository's own config.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

// ESLint loads eslint.config.mjs with a dynamic import(), which jest's module sandbox refuses, so
// the Node API runs in a child process: every snippet of this file is linted in one call.
const LINT = `
const { ESLint } = require('eslint');
(async () => {
  const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  const eslint = new ESLint({ cwd: process.cwd() });
  const out = [];
  for (const { filePath, code } of cases) {
    const [result] = await eslint.lintText(code, { filePath });
    out.push(result.messages);
  }
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

function lint(cases) {
  const run = spawnSync(process.execPath, ['-e', LINT], {
    cwd: join(__dirname, '..', '..'),
    input: JSON.stringify(cases),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

const pending = [];
/** Registers a snippet; its boundary errors are there once beforeAll has linted them all. */
function snippet(filePath, code) {
  const entry = { filePath, code, errors: null };
  pending.push(entry);
  return entry;
}

beforeAll(() => {
  const results = lint(pending.map(({ filePath, code }) => ({ filePath, code })));
  results.forEach((messages, i) => {
    const fatal = messages.filter((m) => m.fatal);
    if (fatal.length > 0) throw new Error(fatal.map((m) => m.message).join('; '));
    pending[i].errors = messages
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => ({ severity: m.severity, line: m.line, message: m.message }));
  });
}, 60_000);

const ERROR = 2;
const use = (name, from, type = false) =>
  `import ${type ? 'type ' : ''}{ ${name} } from '${from}';\nexport ${type ? `type T = ${name}` : `const x = ${name}`};\n`;

const domainToService = snippet('libs/domain-ledger/src/x.ts', use('LedgerService', '@analyst/ledger'));
const domainToNest = snippet('libs/domain-content/src/x.ts', use('Injectable', '@nestjs/common'));
const serviceToService = snippet('libs/sampling/src/x.ts', use('AnalysisQueries', '@analyst/analysis'));
const reExport = snippet('libs/gateway/src/x.ts', "export * from '@analyst/ingest';\n");
const typeOnly = snippet('libs/ingest/src/x.ts', use('LedgerService', '@analyst/ledger', true));
const gatewayToLedger = snippet('libs/gateway/src/x.ts', use('LedgerModule', '@analyst/ledger'));
const toService = [
  'libs/platform/src/x.ts',
  'libs/provider-reddit/src/x.ts',
  'libs/comment-index/src/x.ts',
].map((file) => snippet(file, use('IngestModule', '@analyst/ingest')));
const deepImport = snippet(
  'libs/domain-ledger/src/x.ts',
  use('DeciderSpecification', '@analyst/eventsourcing/testing'),
);
const serviceAllowed = snippet(
  'libs/sampling/src/x.ts',
  [
    "import { TeamIndex } from '@analyst/comment-index';",
    "import { readTeamCreditsAt } from '@analyst/ledger-read';",
    "import { selectRows } from '@analyst/domain-analysis';",
    "import { ApiError } from '@analyst/contracts';",
    "import type { Principal } from '@analyst/platform';",
    'export const all = [TeamIndex, readTeamCreditsAt, selectRows, ApiError];',
    'export type P = Principal;',
    '',
  ].join('\n'),
);
const domainAllowed = snippet(
  'libs/domain-identity/src/x.ts',
  "import { ApiError } from '@analyst/contracts';\nimport type { Decider } from '@analyst/eventsourcing';\nexport type D = Decider<unknown, unknown, ApiError>;\n",
);
const composedInTest = snippet('libs/sampling/test/x.ts', use('AnalysisModule', '@analyst/analysis'));
const composedInApp = snippet('apps/sampling/src/x.ts', use('AnalysisModule', '@analyst/analysis'));
const domainToDomain = snippet(
  'libs/domain-ledger/src/x.ts',
  use('asPostOutcome', '@analyst/domain-content'),
);
const platformToAdapter = snippet(
  'libs/platform/src/x.ts',
  use('SqliteEventStore', '@analyst/adapter-sqlite'),
);
const adapterToPlatform = [
  'libs/adapter-sqlite/src/x.ts',
  'libs/adapter-kafka/src/x.ts',
  'libs/provider-reddit/src/x.ts',
].map((file) => snippet(file, use('HealthRegistry', '@analyst/platform')));
const principalFromGateway = ['libs/analysis/src/x.ts', 'libs/ingest/src/x.ts', 'libs/sampling/src/x.ts'].map(
  (file) => snippet(file, use('Principal', '@analyst/gateway', true)),
);

describe('layer rules (eslint.config.mjs)', () => {
  it('a domain library importing a service library is an error', () => {
    expect(domainToService.errors).toHaveLength(1);
    expect(domainToService.errors[0].severity).toBe(ERROR);
    expect(domainToService.errors[0].message).toContain("'@analyst/ledger' import is restricted");
    expect(domainToService.errors[0].message).toContain(
      "libs/domain-ledger is tagged 'domain', which may import contracts, core",
    );
  });

  it('a domain library loading Nest is an error (framework-free)', () => {
    expect(domainToNest.errors).toEqual([
      expect.objectContaining({ severity: ERROR, message: expect.stringContaining('framework-free') }),
    ]);
  });

  it('a service library importing another service library is an error', () => {
    expect(serviceToService.errors).toHaveLength(1);
    expect(serviceToService.errors[0].severity).toBe(ERROR);
    expect(serviceToService.errors[0].message).toContain("'@analyst/analysis' import is restricted");
    expect(serviceToService.errors[0].message).toContain("libs/sampling is tagged 'service'");
  });

  it('so are a re-export, a type-only import, and the ledger barrel from the gateway', () => {
    expect(reExport.errors).toHaveLength(1);
    expect(typeOnly.errors).toHaveLength(1);
    expect(gatewayToLedger.errors).toHaveLength(1);
  });

  it('the platform, adapters and shared libraries never import a service', () => {
    for (const s of toService) expect(s.errors).toEqual([expect.objectContaining({ severity: ERROR })]);
  });

  it('production code imports through barrels, never a test-only entry point', () => {
    expect(deepImport.errors).toEqual([
      expect.objectContaining({ severity: ERROR, message: expect.stringContaining('through its barrel') }),
    ]);
  });

  it('allows what the layers allow (Principal from the platform), tests and apps', () => {
    expect(serviceAllowed.errors).toEqual([]);
    expect(domainAllowed.errors).toEqual([]);
    expect(composedInTest.errors).toEqual([]);
    expect(composedInApp.errors).toEqual([]);
  });

  it('the platform composes the adapters; an adapter importing the platform is an error (no cycle)', () => {
    expect(platformToAdapter.errors).toEqual([]);
    for (const s of adapterToPlatform)
      expect(s.errors).toEqual([
        expect.objectContaining({ severity: ERROR, message: expect.stringContaining("tagged 'adapter'") }),
      ]);
  });

  it('no service reaches into the gateway for Principal or the route decorators any more (no exception left)', () => {
    for (const s of principalFromGateway)
      expect(s.errors).toEqual([expect.objectContaining({ severity: ERROR })]);
  });

  it('a domain library importing another domain library is an error (no exception left)', () => {
    expect(domainToDomain.errors).toEqual([
      expect.objectContaining({
        severity: ERROR,
        message: expect.stringContaining("'@analyst/domain-content' import is restricted"),
      }),
    ]);
  });
});
