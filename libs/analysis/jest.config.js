module.exports = { ...require('../../jest.preset.js'), displayName: 'analysis', rootDir: __dirname };
