#!/usr/bin/env node
// Proves `npm i @indus/ledger` works on its own: packs this package and
// @indus/contract (not published yet, so its tarball is installed alongside)
// with `pnpm pack` (which turns `workspace:`/`catalog:` ranges into versions),
// installs both with npm into an empty folder, and runs the README's example
// there with plain node, comparing what it prints with what the README says.
// Run: `pnpm run check:pack` (builds this package first). KEEP=1 keeps the folder.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const contractDir = path.resolve(pkgDir, "..", "contract");

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const step = (msg) => console.log(`pack-check: ${msg}`);

for (const dir of [pkgDir, contractDir]) {
  if (!existsSync(path.join(dir, "dist", "index.js"))) {
    console.error(
      `pack-check: ${path.basename(dir)} has no dist/; build it first (pnpm --filter @indus/${path.basename(dir)} build)`,
    );
    process.exit(2);
  }
}

const readme = readFileSync(path.join(pkgDir, "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## Example"));
const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
const expected = /```text\n([\s\S]*?)```/.exec(section)?.[1];
if (!code || !expected) throw new Error("README has no example block followed by its output");

const tmp = mkdtempSync(path.join(os.tmpdir(), "indus-ledger-pack-"));
let ok = false;
try {
  for (const dir of [contractDir, pkgDir]) run("pnpm", ["pack", "--pack-destination", tmp], dir);
  const tarballs = readdirSync(tmp).filter((f) => f.endsWith(".tgz"));
  step(`packed ${tarballs.join(", ")}`);

  const ledgerTgz = tarballs.find((f) => f.includes("ledger"));
  const manifest = JSON.parse(run("tar", ["-xzOf", path.join(tmp, ledgerTgz), "package/package.json"], tmp));
  step(`packed dependencies: ${JSON.stringify(manifest.dependencies)}`);
  const listing = run("tar", ["-tzf", path.join(tmp, ledgerTgz)], tmp)
    .trim()
    .split("\n");
  step(`packed files: ${listing.join(" ")}`);

  const app = path.join(tmp, "app");
  mkdirSync(app);
  run("npm", ["init", "-y"], app);
  run("npm", ["install", "--no-audit", "--no-fund", ...tarballs.map((t) => path.join("..", t))], app);
  const installed = readdirSync(path.join(app, "node_modules")).flatMap((d) =>
    d.startsWith("@")
      ? readdirSync(path.join(app, "node_modules", d)).map((s) => `${d}/${s}`)
      : d.startsWith(".")
        ? []
        : [d],
  );
  step(`installed: ${installed.sort().join(", ")}`);

  writeFileSync(path.join(app, "example.mjs"), code);
  const printed = run(process.execPath, ["example.mjs"], app);
  if (printed !== expected) {
    console.error(`pack-check: the example printed\n${printed}\nbut the README says\n${expected}`);
    process.exitCode = 1;
  } else {
    step("the README example runs from the installed tarball and prints what the README says");
    ok = true;
  }
} finally {
  if (process.env.KEEP === "1") step(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
if (!ok) process.exitCode = 1;
