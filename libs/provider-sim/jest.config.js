module.exports = { ...require('../../jest.preset.js'), displayName: 'provider-sim', rootDir: __dirname };
