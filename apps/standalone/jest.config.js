module.exports = { ...require('../../jest.preset.js'), displayName: 'standalone', rootDir: __dirname, testTimeout: 60000 };
