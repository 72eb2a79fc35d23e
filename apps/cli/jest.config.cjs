const preset = require("../../jest.preset.cjs")(__dirname);

module.exports = {
  ...preset,
  // Subprocess tests run the bundled binary; build it first when it is stale.
  globalSetup: "<rootDir>/test/support/build-if-stale.cjs",
};
