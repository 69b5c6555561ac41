module.exports = { ...require('../../jest.preset.js'), displayName: 'app-relay', rootDir: __dirname };
