import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * Layers (issue 19). Every project has one tag; production code of a project may import only the
 * libraries whose tags its own tag allows, and only through their barrels (`@analyst/<name>`).
 * A library missing from PROJECTS can be imported by nobody's production code until it gets a tag.
 * Tests (`test/`, `*.spec.ts`, `testing/`) are composition roots like the apps: they may boot several
 * services together, so they are not checked. bench/ and tools/ are not checked either.
 * Checked by tools/test/module-boundaries.spec.js (`npm run test:tools`).
 */
const PROJECTS = {
  'libs/contracts': 'contracts',
  'libs/client': 'client',
  'libs/eventsourcing': 'core',
  'libs/domain-analysis': 'domain',
  'libs/domain-content': 'domain',
  'libs/domain-identity': 'domain',
  'libs/domain-ledger': 'domain',
  'libs/links': 'shared',
  'libs/scoring': 'shared',
  'libs/encoder': 'shared',
  'libs/comment-index': 'shared',
  'libs/analyses-read': 'shared',
  'libs/ledger-read': 'shared',
  'libs/webhooks': 'shared',
  'libs/platform': 'platform',
  'libs/adapter-sqlite': 'adapter',
  'libs/adapter-postgres': 'adapter',
  'libs/adapter-mongo': 'adapter',
  'libs/adapter-eventstoredb': 'adapter',
  'libs/adapter-kafka': 'adapter',
  'libs/provider-core': 'adapter',
  'libs/provider-reddit': 'adapter',
  'libs/provider-sim': 'adapter',
  'libs/provider-youtube': 'adapter',
  'libs/testing': 'testing',
  'libs/gateway': 'service',
  'libs/ingest': 'service',
  'libs/ledger': 'service',
  'libs/analysis': 'service',
  'libs/sampling': 'service',
  'libs/notifier': 'service',
  'apps/*': 'app',
};

/** Which tags each tag may import (its own tag is listed where a project may import a sibling). */
const ALLOWED = {
  contracts: [],
  client: [],
  core: ['contracts'],
  domain: ['contracts', 'core'],
  shared: ['contracts', 'core', 'domain', 'platform', 'shared'],
  // The platform composes the storage and messaging adapters by config (PlatformModule) and
  // re-exports them from its barrel (issue 19), so it imports adapters; adapters therefore may not
  // import the platform (no cycle), and none of them needs it.
  platform: ['contracts', 'core', 'adapter'],
  adapter: ['contracts', 'core', 'shared', 'adapter'],
  testing: ['contracts', 'core', 'platform'],
  service: ['contracts', 'core', 'domain', 'platform', 'shared', 'adapter'],
  app: ['contracts', 'core', 'domain', 'platform', 'shared', 'adapter', 'service'],
};

/** Imports allowed beyond the tags, each with its reason. */
/** Imports a library's tag does not allow, allowed for one folder with a reason. None today. */
const EXCEPTIONS = {};

/** Frameworks and I/O clients the framework-free layers may not load. */
const FRAMEWORKS = [
  '@nestjs/*',
  'fastify',
  '@fastify/*',
  'kafkajs',
  'mongodb',
  'better-sqlite3',
  'pg',
  '@eventstore/*',
  '@opentelemetry/*',
  'pino',
];
const FRAMEWORK_FREE = ['contracts', 'core', 'domain'];

const libName = (folder) => folder.slice(folder.indexOf('/') + 1);

function boundaryRules() {
  const libs = Object.entries(PROJECTS).filter(([folder]) => folder.startsWith('libs/'));
  return Object.entries(PROJECTS).map(([folder, tag]) => {
    const allowedTags = ALLOWED[tag];
    const allowed = [
      ...libs.filter(([, t]) => allowedTags.includes(t)).map(([f]) => libName(f)),
      ...(EXCEPTIONS[folder] ?? []),
    ].filter((name) => `libs/${name}` !== folder);
    const patterns = [
      {
        group: ['@analyst/*', ...allowed.map((name) => `!@analyst/${name}`)],
        message: `${folder} is tagged '${tag}', which may import ${allowedTags.length ? allowedTags.join(', ') : 'nothing of the project'}${EXCEPTIONS[folder] ? ` (and, as an exception, ${EXCEPTIONS[folder].join(', ')})` : ''}: see PROJECTS and ALLOWED in eslint.config.mjs and docs/layout.md.`,
      },
      {
        regex: '^@analyst/[^/]+/(?!package\\.json$|openapi\\.json$)',
        message:
          'Import a library through its barrel (@analyst/<name>); deep imports and test-only entry points (…/testing) are not for production code.',
      },
    ];
    if (FRAMEWORK_FREE.includes(tag))
      patterns.push({
        group: FRAMEWORKS,
        message: `${folder} is tagged '${tag}': framework-free, no Nest, HTTP, database or tracing clients.`,
      });
    return {
      files: [`${folder}/**/*.ts`],
      ignores: ['**/test/**', '**/*.spec.ts', 'libs/*/testing/**'],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    };
  });
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'deploy/local/.stack/**',
      '.ci/.venv/**',
      '.schemathesis/**',
      'libs/client/dist/**',
      '**/jest.config.js',
      'jest.preset.js',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // One import statement per module: a file that imports one module twice reads as two sources.
      'no-duplicate-imports': 'error',
      // A warning, not an error: the functions above 25 are to be split (issue 19), the rest watched.
      complexity: ['warn', 15],
    },
  },
  {
    // Plain Node scripts (CommonJS) under tools/.
    files: ['tools/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read JSON bodies loosely; production code may not.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'libs/testing/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...boundaryRules(),
);
