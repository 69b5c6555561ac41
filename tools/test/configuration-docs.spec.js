/* global describe, it, expect */
// docs/configuration.md against the code: every environment variable the code reads has a row,
// and every row names a variable the code reads, so the page cannot drift as variables come and go.
const { readFileSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const PAGE = join(ROOT, 'docs', 'configuration.md');
const BENCH_PAGE = join(ROOT, 'docs', 'benchmarks.md');
const CONFIG_CLASS = join(ROOT, 'libs', 'platform', 'src', 'config', 'analyst-config.ts');

const NAME = '[A-Z][A-Z0-9_]*[A-Z0-9]';
/** `process.env.X`, `process.env?.X`, `process.env['X']`: a real read of the environment, anywhere. */
const PROCESS_ENV = new RegExp(`process\\.env\\??\\.?(?:\\.(${NAME})\\b|\\[['"](${NAME})['"]\\])`, 'g');
/** `env.X` / `env['X']`: the functions that take the environment as a parameter (production code only). */
const ENV_PARAM = new RegExp(`\\benv\\??\\.?(?:\\.(${NAME})\\b|\\[['"](${NAME})['"]\\])`, 'g');
/** A quoted variable name, as helpers like ingest's `ms('ANALYST_HOLD_RETRY_MS', …)` take it. */
const QUOTED = new RegExp(
  `['"\`]((?:ANALYST|ANALYSIS|KAFKA|MONGO|EVENTSTORE|OTEL|LOG|REDDIT|YOUTUBE|POSTGRES|E2E)_[A-Z0-9_]*[A-Z0-9])['"\`]`,
  'g',
);
/** A name built in a template literal, `ANALYST_UPSTREAM_${service…}`: a family of variables. */
const FAMILY = new RegExp(
  '`((?:ANALYST|ANALYSIS|KAFKA|MONGO|EVENTSTORE|OTEL|LOG|REDDIT|YOUTUBE|POSTGRES|E2E)_[A-Z0-9_]*_)\\$\\{',
  'g',
);
/** `os.environ['X']`, `os.environ.get('X')`, `os.getenv('X')` in the Python tools. */
const PYTHON_ENV = new RegExp(`(?:os\\.environ(?:\\.get\\(|\\[)|getenv\\()['"](${NAME})['"]`, 'g');

function filesUnder(dir, keep) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path, keep));
    else if (keep(path)) found.push(path);
  }
  return found;
}

const isScript = (path) => /\.(ts|js|mjs|cjs)$/.test(path) && !path.endsWith('.d.ts');
const isTest = (path) => /[/\\]test[/\\]/.test(relative(ROOT, path)) || /\.spec\.[jt]s$/.test(path);

function matches(text, pattern) {
  return [...text.matchAll(pattern)].map((m) => m[1] ?? m[2]);
}

/** Variable name → the files that read it; `families`: prefix → the files that build names from it. */
function variablesTheCodeReads() {
  const reads = new Map();
  const families = new Map();
  const add = (name, file) => {
    if (!reads.has(name)) reads.set(name, new Set());
    reads.get(name).add(relative(ROOT, file));
  };
  // AnalystConfig's fields are the variables loadConfig validates (two-space indented `NAME` / `NAME?`).
  const configClass = readFileSync(CONFIG_CLASS, 'utf8');
  for (const m of configClass.matchAll(new RegExp(`^ {2}(${NAME})\\??(?::|\\s*=)`, 'gm')))
    add(m[1], CONFIG_CLASS);

  const scripts = [join(ROOT, 'apps'), join(ROOT, 'libs'), join(ROOT, 'tools')].flatMap((dir) =>
    filesUnder(dir, isScript),
  );
  for (const file of scripts) {
    const text = readFileSync(file, 'utf8');
    for (const name of matches(text, PROCESS_ENV)) add(name, file);
    if (isTest(file)) continue; // tests build environments for children: only their own reads count
    for (const name of matches(text, ENV_PARAM)) add(name, file);
    for (const name of matches(text, QUOTED)) add(name, file);
    for (const prefix of matches(text, FAMILY)) {
      if (!families.has(prefix)) families.set(prefix, new Set());
      families.get(prefix).add(relative(ROOT, file));
    }
  }
  // The Python tools, and the Python client's package (not its tests, builds or virtualenvs).
  const pythonSources = [
    ...filesUnder(join(ROOT, 'tools'), (path) => path.endsWith('.py')),
    ...filesUnder(join(ROOT, 'clients', 'python', 'src'), (path) => path.endsWith('.py')),
  ];
  for (const file of pythonSources) {
    for (const name of matches(readFileSync(file, 'utf8'), PYTHON_ENV)) add(name, file);
  }
  return { reads, families };
}

/** Bench name → the benches that read it (process.env only; `bench/.data` and other dot folders skipped). */
function variablesTheBenchesRead() {
  const reads = new Map();
  for (const file of filesUnder(join(ROOT, 'bench'), isScript)) {
    for (const name of matches(readFileSync(file, 'utf8'), PROCESS_ENV)) {
      if (!reads.has(name)) reads.set(name, new Set());
      reads.get(name).add(relative(ROOT, file));
    }
  }
  return reads;
}

/** The variables named in the first column of a page's tables. */
function variablesThePageNames(page = PAGE) {
  const names = new Set();
  for (const line of readFileSync(page, 'utf8').split('\n')) {
    if (!line.startsWith('|') || /^\|[-\s|]+\|$/.test(line)) continue;
    const first = line.split('|')[1];
    for (const m of first.matchAll(new RegExp('`(' + NAME + ')`', 'g'))) names.add(m[1]);
  }
  return names;
}

describe('docs/configuration.md', () => {
  const { reads, families } = variablesTheCodeReads();
  const documented = variablesThePageNames();
  /** A documented name the code reads: literally, or as a member of a family it builds names from. */
  const isRead = (name) => reads.has(name) || [...families.keys()].some((prefix) => name.startsWith(prefix));

  it('finds the variables the code reads (the scan itself works)', () => {
    // One read of each kind: a config field, a process.env read, an env parameter read, a quoted name, Python.
    expect(reads.get('ANALYST_READ_CACHE_MB')).toContain('libs/platform/src/config/analyst-config.ts');
    expect(reads.get('ANALYST_DEMO')).toContain('tools/start-standalone.js');
    expect(reads.get('ANALYST_ENCODER_THREADS')).toContain('libs/encoder/src/encoder-config.ts');
    expect(reads.get('ANALYST_HOLD_RETRY_MS')).toContain('libs/ingest/src/ingest.tokens.ts');
    expect(reads.get('ANALYST_TRAIN_DATA')).toContain('tools/train-sentiment/train.py');
    expect(reads.get('ANALYST_API_KEY')).toContain('clients/python/src/analyst_client/client.py');
    expect(documented.has('PORT')).toBe(true);
    expect(documented.has('HOST')).toBe(true);
  });

  it('names every variable the code reads', () => {
    const missing = [...reads.keys()]
      .filter((name) => !documented.has(name))
      .map((name) => `${name} (read in ${[...reads.get(name)].join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('names no variable the code does not read', () => {
    expect([...documented].filter((name) => !isRead(name))).toEqual([]);
  });

  it('names members of every family of variables the code builds names for', () => {
    expect(families.get('ANALYST_UPSTREAM_')).toBeDefined();
    const uncovered = [...families.keys()]
      .filter((prefix) => ![...documented].some((name) => name.startsWith(prefix) && !reads.has(name)))
      .map((prefix) => `${prefix}… (built in ${[...families.get(prefix)].join(', ')})`);
    expect(uncovered).toEqual([]);
  });

  it('is a real page: every table row has a default and a meaning', () => {
    const rows = readFileSync(PAGE, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) {
      const cells = row.split('|').slice(1, -1);
      expect([row, cells.length]).toEqual([row, 3]);
      expect([row, cells[2].trim().length > 5]).toEqual([row, true]);
    }
    expect(statSync(PAGE).size).toBeGreaterThan(5_000);
  });
});

describe('docs/benchmarks.md, bench parameters', () => {
  const benches = variablesTheBenchesRead();
  const onConfigurationPage = variablesThePageNames();
  const documented = variablesThePageNames(BENCH_PAGE);

  it('finds what the benches read', () => {
    expect(benches.get('SCALE_COMMENTS')).toContain('bench/search-scale.ts');
  });

  it('names every variable a bench reads that the configuration page does not', () => {
    const missing = [...benches.keys()]
      .filter((name) => !onConfigurationPage.has(name) && !documented.has(name))
      .map((name) => `${name} (read in ${[...benches.get(name)].join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('names no variable no bench reads', () => {
    expect([...documented].filter((name) => !benches.has(name))).toEqual([]);
  });
});
