/* global require, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS require hook has to use require() */
// Lets a plain `node` child process run the workspace's TypeScript: compiles .ts files with SWC
// on require (as jest does) and resolves the @analyst/* path aliases of tsconfig.base.json.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../../../..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));
const aliases = new Map(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(root, target)]));

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases.get(request) ?? request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
