module.exports = { ...require('../../jest.preset.js'), displayName: 'app-notifier', rootDir: __dirname };
