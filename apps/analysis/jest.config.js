module.exports = { ...require('../../jest.preset.js'), displayName: 'app-analysis', rootDir: __dirname };
