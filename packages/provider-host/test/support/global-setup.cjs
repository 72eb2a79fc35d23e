// Child-process tests run the BUILT package (test/fixtures/*.mjs import
// ../../dist). Build it here when dist is missing or older than the sources, so
// `npx jest` in this folder works on a clean checkout as well as after `pnpm test`.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

function newestMtime(target) {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

function ensureBuilt(packageDir, { onlyIfMissing = false } = {}) {
  const entry = path.join(packageDir, "dist", "index.js");
  if (onlyIfMissing && fs.existsSync(entry)) return;
  const sources = Math.max(
    newestMtime(path.join(packageDir, "src")),
    newestMtime(path.join(packageDir, "package.json")),
  );
  if (fs.existsSync(entry) && fs.statSync(entry).mtimeMs >= sources) return;
  const tsup = require.resolve("tsup/dist/cli-default.js", { paths: [packageDir] });
  execFileSync(process.execPath, [tsup], { cwd: packageDir, stdio: "ignore" });
}

module.exports = async function globalSetup() {
  const here = path.join(__dirname, "..", "..");
  // The contract is only built when absent (the root `pnpm test` builds it first).
  ensureBuilt(path.join(here, "..", "contract"), { onlyIfMissing: true });
  ensureBuilt(here);
};
