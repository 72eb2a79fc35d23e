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
  projects: [path.join(__dirname, "scripts"), ...dirs],
};
