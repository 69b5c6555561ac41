// Shared jest settings for every project: SWC for speed (type-checking is `npm run typecheck`),
// and the tsconfig path aliases mapped to sources so tests never need a build.
const path = require('path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(spec).ts'],
  setupFiles: [path.join(__dirname, 'tools/jest-defaults.js')],
  // Every test and hook that names no bound of its own. Suites boot apps, open stores and wait for
  // projections; on a loaded machine (other jobs, \`nx --parallel\`) that takes many times jest's 5 s
  // default, and a test that fails because the machine is busy says nothing about the code.
  testTimeout: 60_000,
};
