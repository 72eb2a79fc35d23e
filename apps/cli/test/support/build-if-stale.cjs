// Rebuild dist/indusr.js when any source in the workspace is newer than it.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const app = path.join(__dirname, "..", "..");
const root = path.join(app, "..", "..");

function newest(dir) {
  let latest = 0;
  if (!fs.existsSync(dir)) return latest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}

module.exports = async function buildIfStale() {
  const bin = path.join(app, "dist", "indusr.js");
  const built = fs.existsSync(bin) ? fs.statSync(bin).mtimeMs : 0;
  const sources = [
    path.join(app, "src"),
    ...fs.readdirSync(path.join(root, "packages")).map((p) => path.join(root, "packages", p, "src")),
  ];
  if (sources.some((dir) => newest(dir) > built)) {
    execFileSync(process.execPath, [require.resolve("tsup/dist/cli-default.js", { paths: [app] })], {
      cwd: app,
      stdio: "inherit",
    });
  }
};
