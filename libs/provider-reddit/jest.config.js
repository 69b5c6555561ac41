module.exports = { ...require('../../jest.preset.js'), displayName: 'provider-reddit', rootDir: __dirname };
