module.exports = { ...require('../../jest.preset.js'), displayName: 'ledger-read', rootDir: __dirname };
