module.exports = { ...require('../../jest.preset.js'), displayName: 'comment-index', rootDir: __dirname };
