/* global describe, it, expect */
// The README and the docs/ pages hold together: the README stays short and keeps the test command
// .ci/run names, every page is reachable from the README and named on the served API reference
// page, and every relative link (and #anchor) points at a file and heading that exist.
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const API_DOCS_PAGE = join(ROOT, 'libs', 'platform', 'src', 'nest', 'api-docs.ts');

const docPages = () =>
  readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name));
const pages = () => [README, ...docPages()];
const rel = (path) => relative(ROOT, path).split('\\').join('/');

/** Markdown text outside fenced code blocks (a link inside a code sample is not a link). */
function prose(text) {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path) {
  const anchors = new Set();
  const seen = new Map();
  for (const m of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** `[text](target)` links that stay in the repository: no scheme, no mailto. */
function relativeLinks(path) {
  return [...prose(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('README.md and docs/', () => {
  it('the README is short and keeps the test command .ci/run runs', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    expect(readme).toMatch(/^npm test\s+#/m);
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toContain("the README's test command");
  });

  it('has no line over 400 characters', () => {
    const long = pages().flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${rel(path)}:${i + 1}`, length: line.length }))
        .filter((line) => line.length > 400),
    );
    expect(long).toEqual([]);
  });

  it('links every docs page from the README', () => {
    const linked = new Set(relativeLinks(README).map((target) => target.split('#')[0]));
    expect(docPages().length).toBeGreaterThanOrEqual(8);
    expect(
      docPages()
        .map(rel)
        .filter((page) => !linked.has(page)),
    ).toEqual([]);
  });

  it('names every docs page, and only existing ones, on the API reference page', () => {
    const named = [...readFileSync(API_DOCS_PAGE, 'utf8').matchAll(/path: '([^']+)'/g)].map((m) => m[1]);
    expect(named).toContain('README.md');
    expect(
      docPages()
        .map(rel)
        .filter((page) => !named.includes(page)),
    ).toEqual([]);
    expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('has no broken relative link or anchor', () => {
    const broken = [];
    for (const path of pages()) {
      for (const target of relativeLinks(path)) {
        const [file, anchor] = target.split('#');
        const to = file === '' ? path : resolve(dirname(path), file);
        if (!existsSync(to)) broken.push(`${rel(path)}: ${target} (no such file)`);
        else if (anchor && statSync(to).isFile() && to.endsWith('.md') && !anchorsOf(to).has(anchor))
          broken.push(`${rel(path)}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds links and anchors at all (the checks above can fail)', () => {
    expect(slug('Requests refused while the broker is down')).toBe(
      'requests-refused-while-the-broker-is-down',
    );
    expect(slug('`bench/search-paraphrase.ts`')).toBe('benchsearch-paraphrasets');
    expect(anchorsOf(join(DOCS, 'configuration.md')).has('gateway')).toBe(true);
    expect(relativeLinks(README)).toContain('docs/configuration.md');
  });
});
