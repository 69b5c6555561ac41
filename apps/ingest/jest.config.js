module.exports = { ...require('../../jest.preset.js'), displayName: 'app-ingest', rootDir: __dirname };
