module.exports = { ...require('../../jest.preset.js'), displayName: 'domain-identity', rootDir: __dirname };
