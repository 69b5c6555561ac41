module.exports = { ...require('../../jest.preset.js'), displayName: 'ledger', rootDir: __dirname };
