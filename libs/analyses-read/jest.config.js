module.exports = { ...require('../../jest.preset.js'), displayName: 'analyses-read', rootDir: __dirname };
