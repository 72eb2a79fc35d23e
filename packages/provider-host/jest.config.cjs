module.exports = {
  ...require("../../jest.preset.cjs")(__dirname),
  // Builds dist when stale: child-process fixtures run the published build.
  globalSetup: "<rootDir>/test/support/global-setup.cjs",
};
