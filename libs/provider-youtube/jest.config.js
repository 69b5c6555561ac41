module.exports = { ...require('../../jest.preset.js'), displayName: 'provider-youtube', rootDir: __dirname };
