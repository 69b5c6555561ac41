// Tests of the plain Node tools (not an Nx project): run by `npm run test:tools`, part of `npm test`.
module.exports = { ...require('../jest.preset.js'), displayName: 'tools', rootDir: __dirname, testMatch: ['**/test/**/*.spec.js'] };
