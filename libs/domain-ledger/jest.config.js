module.exports = { ...require('../../jest.preset.js'), displayName: 'domain-ledger', rootDir: __dirname };
