module.exports = { ...require('../../jest.preset.js'), displayName: 'adapter-eventstoredb', rootDir: __dirname };
