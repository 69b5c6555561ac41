module.exports = { ...require('../../jest.preset.js'), displayName: 'domain-content', rootDir: __dirname };
