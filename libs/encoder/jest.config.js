module.exports = { ...require('../../jest.preset.js'), displayName: 'encoder', rootDir: __dirname };
