module.exports = { ...require('../../jest.preset.js'), displayName: 'provider-core', rootDir: __dirname };
