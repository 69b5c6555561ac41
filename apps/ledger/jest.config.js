module.exports = { ...require('../../jest.preset.js'), displayName: 'app-ledger', rootDir: __dirname };
