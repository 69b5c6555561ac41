module.exports = { ...require('../../jest.preset.js'), displayName: 'adapter-postgres', rootDir: __dirname };
