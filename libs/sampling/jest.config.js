module.exports = { ...require('../../jest.preset.js'), displayName: 'sampling', rootDir: __dirname };
