// One command from the root runs every package's suite (and the workspace checks).
const fs = require("node:fs");
const path = require("node:path");

const dirs = ["packages", "apps"].flatMap((group) => {
  const base = path.join(__dirname, group);
  if (!fs.existsSync(base)) return [];
  return fs
    .readdirSync(base)
    .map((name) => path.join(base, name))
    .filter((dir) => fs.existsSync(path.join(dir, "jest.config.cjs")));
});

module.exports = {
  // Most suites wait on child processes and sockets, not the CPU: on two cores a
  // third worker fills the idle time (see docs/decisions/tests-wait-for-events.md).
  maxWorkers: 3,
  // Read from the root config when every project runs at once (see jest.preset.cjs).
  testTimeout: 60_000,
  projects: [path.join(__dirname, "scripts"), ...dirs],
};
