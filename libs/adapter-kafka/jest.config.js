module.exports = { ...require('../../jest.preset.js'), displayName: 'adapter-kafka', rootDir: __dirname };
