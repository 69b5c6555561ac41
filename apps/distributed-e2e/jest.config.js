module.exports = { ...require('../../jest.preset.js'), displayName: 'distributed-e2e', rootDir: __dirname, testTimeout: 300000 };
