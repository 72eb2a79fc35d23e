#!/usr/bin/env node
/**
 * `publint --strict` over every published package of the workspace, in one
 * process: one task instead of one `pnpm run lint` (and one Node start) per
 * package. Each package is packed by pnpm (as `publint` alone does), so the
 * rules that look at the packed files still see them. Run after `pnpm build`.
 * Exits 1 when any package has an error (strict: warnings count as errors), as
 * the `publint` command does.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const GROUPS = ["packages", "apps"];

/** Every workspace package that is published (not `private`). */
function publishedPackages() {
  return GROUPS.flatMap((group) =>
    fs
      .readdirSync(path.join(root, group))
      .map((name) => path.join(root, group, name))
      .filter((dir) => fs.existsSync(path.join(dir, "package.json")))
      .map((dir) => ({ dir, pkg: JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) }))
      .filter(({ pkg }) => pkg.private !== true),
  );
}

async function lintOne({ dir, pkg }) {
  const { messages, pkg: packed } = await publint({ pkgDir: dir, strict: true, pack: "pnpm" });
  const lines = messages.map((m) => `  ${m.type}: ${formatMessage(m, packed) ?? m.code}`);
  return { name: pkg.name, lines, failed: messages.some((m) => m.type === "error") };
}

/**
 * turbo's root tasks that read every package's `dist` (`//#publint`, and `//#lint:eslint`: tests resolve their
 * package's types from it) must build every package first. Each task whose `dependsOn` lacks one, with the lacking.
 */
function unbuiltByTurbo(packages) {
  const turbo = JSON.parse(fs.readFileSync(path.join(root, "turbo.json"), "utf8"));
  return ["//#publint", "//#lint:eslint"]
    .map((task) => {
      const builds = new Set(turbo.tasks[task]?.dependsOn ?? []);
      return { task, lacking: packages.map(({ pkg }) => pkg.name).filter((name) => !builds.has(`${name}#build`)) };
    })
    .filter(({ lacking }) => lacking.length > 0);
}

const packages = publishedPackages();
const missing = unbuiltByTurbo(packages);
for (const { task, lacking } of missing) {
  console.error(`publint: turbo.json's ${task} dependsOn lacks ${lacking.map((n) => `"${n}#build"`).join(", ")}`);
}
if (missing.length > 0) process.exit(1);
const results = await Promise.all(packages.map(lintOne));
let failed = false;
for (const { name, lines, failed: bad } of results) {
  if (lines.length === 0) continue;
  console.log(`publint ${name}:\n${lines.join("\n")}`);
  failed ||= bad;
}
console.log(`publint: ${results.length} packages, ${failed ? "FAILED" : "ok"}`);
process.exit(failed ? 1 : 0);
