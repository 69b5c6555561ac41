module.exports = { ...require('../../jest.preset.js'), displayName: 'app-sampling', rootDir: __dirname };
