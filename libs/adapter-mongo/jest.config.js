module.exports = { ...require('../../jest.preset.js'), displayName: 'adapter-mongo', rootDir: __dirname };
