module.exports = { ...require('../../jest.preset.js'), displayName: 'adapter-sqlite', rootDir: __dirname };
