module.exports = { ...require('../../jest.preset.js'), displayName: 'domain-analysis', rootDir: __dirname };
