module.exports = { ...require('../../jest.preset.js'), displayName: 'notifier', rootDir: __dirname };
