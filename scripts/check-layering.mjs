#!/usr/bin/env node
/**
 * The layering check: dependencies point inward, toward `contract`.
 * Reads every package.json and every import under `src/`, `test/` and `bench/`
 * and reports an edge outside the table, an undeclared `@indus/*` import, a
 * deep import (other than a subpath the target exports), a relative path that
 * leaves its package, and an import cycle between a package's own files
 * (static, type-only and dynamic imports alike).
 * Run: `node scripts/check-layering.mjs [root]`.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Folder name → the `@indus/*` packages it may depend on. `*` means any. */
export const ALLOWED_EDGES = {
  contract: [],
  "schema-normalizer": ["contract"],
  ledger: ["contract"],
  "state-file": ["contract"],
  endpoint: ["contract", "schema-normalizer", "state-file"],
  fleet: ["contract", "endpoint"],
  "provider-host": ["contract"],
  deck: ["contract", "ledger", "state-file"],
  cli: "*",
  testkit: ["contract"],
};

/**
 * Private packages any package's tests may use: allowed only as a
 * devDependency, and imported only from `test/` or `bench/`.
 */
export const TEST_ONLY = ["testkit"];

/**
 * Edges allowed only from named composition files: the package types against
 * contract everywhere else, and imports the sibling's implementation in one place.
 */
export const WIRING_FILES = {
  fleet: { endpoint: ["src/default-endpoint.ts"] },
};

/** The folders whose imports are checked, in each package. */
const CHECKED_DIRS = ["src", "test", "bench"];

const SCOPE = "@indus/";
const SOURCE_EXT = /\.(c|m)?(t|j)sx?$/;
const IMPORT_RE =
  /(?:\bimport\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?|\bexport\s+(?:type\s+)?[^'"`;]*?\sfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;

function listPackages(root) {
  const found = [];
  for (const group of ["packages", "apps"]) {
    const base = path.join(root, group);
    if (!fs.existsSync(base)) continue;
    for (const name of fs.readdirSync(base).sort()) {
      const dir = path.join(base, name);
      const manifest = path.join(dir, "package.json");
      if (fs.existsSync(manifest))
        found.push({ folder: name, dir, manifest: JSON.parse(fs.readFileSync(manifest, "utf8")) });
    }
  }
  return found;
}

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (SOURCE_EXT.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out.sort();
}

/** Strip comments so an example in a doc comment is not read as an import. */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:'"`\\])\/\/.*$/gm, "$1");
}

export function importsOf(text) {
  const specs = [];
  for (const match of stripComments(text).matchAll(IMPORT_RE)) specs.push(match[2]);
  return specs;
}

const RESOLVE_SUFFIXES = ["", ".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", "/index.ts", "/index.js"];

/** The file a relative import names, if it is one of `known` (`./x.js` may name `x.ts`). */
function resolveRelative(from, spec, known) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.(c|m)?js$/, ".$1ts")];
  for (const candidate of candidates) {
    for (const suffix of RESOLVE_SUFFIXES) if (known.has(candidate + suffix)) return candidate + suffix;
  }
  return undefined;
}

/**
 * Each import cycle among one package's files (Tarjan's strongly connected
 * components over relative imports), as the files of the cycle in a stable order.
 */
export function fileCycles(fileImports) {
  const known = new Set(fileImports.keys());
  const edges = new Map();
  for (const [file, specs] of fileImports) {
    const targets = specs.filter((spec) => spec.startsWith(".")).map((spec) => resolveRelative(file, spec, known));
    edges.set(file, [...new Set(targets.filter((target) => target !== undefined))].sort());
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  const connect = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = (edges.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) cycles.push(component.sort());
  };
  for (const node of [...known].sort()) if (!index.has(node)) connect(node);
  return cycles;
}

/** Every violation in the workspace at `root`, as `{where, message}`. */
export function checkLayering(root) {
  const violations = [];
  const packages = listPackages(root);
  const folderOfName = new Map(packages.map((p) => [p.manifest.name, p.folder]));
  const exportsOfName = new Map(packages.map((p) => [p.manifest.name, Object.keys(p.manifest.exports ?? {})]));
  const graph = new Map();

  for (const pkg of packages) {
    const rel = path.relative(root, pkg.dir);
    const allowed = ALLOWED_EDGES[pkg.folder];
    if (allowed === undefined) {
      violations.push({
        where: `${rel}/package.json`,
        message: `package folder "${pkg.folder}" is not in the layering table`,
      });
      continue;
    }
    const declared = new Set();
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
      for (const dep of Object.keys(pkg.manifest[field] ?? {})) {
        if (!dep.startsWith(SCOPE)) continue;
        declared.add(dep);
        const target = folderOfName.get(dep) ?? dep.slice(SCOPE.length);
        if (TEST_ONLY.includes(target)) {
          if (field !== "devDependencies") {
            violations.push({
              where: `${rel}/package.json`,
              message: `${field} names ${dep}: a test-only package belongs in devDependencies`,
            });
          }
        } else if (allowed !== "*" && !allowed.includes(target)) {
          violations.push({
            where: `${rel}/package.json`,
            message: `${field} names ${dep}: the edge ${pkg.folder} → ${target} is not allowed`,
          });
        }
        if (!graph.has(pkg.folder)) graph.set(pkg.folder, new Set());
        graph.get(pkg.folder).add(target);
      }
    }
    const files = CHECKED_DIRS.flatMap((dir) => sourceFiles(path.join(pkg.dir, dir)));
    const fileImports = new Map();
    for (const file of files) {
      const where = path.relative(root, file);
      const specs = importsOf(fs.readFileSync(file, "utf8"));
      fileImports.set(file, specs);
      for (const spec of specs) {
        if (spec.startsWith(SCOPE)) {
          const [, name, ...rest] = spec.split("/");
          const bare = `${SCOPE}${name}`;
          const exported = rest.length > 0 && (exportsOfName.get(bare) ?? []).includes(`./${rest.join("/")}`);
          if (rest.length > 0 && !exported)
            violations.push({ where, message: `deep import "${spec}": import "${bare}" instead` });
          // Tests import their own package through its public name.
          if (bare === pkg.manifest.name) continue;
          if (!declared.has(bare))
            violations.push({ where, message: `imports ${bare} but ${rel}/package.json does not declare it` });
          const target = folderOfName.get(bare) ?? name;
          const fromPackage = path.relative(pkg.dir, file).split(path.sep).join("/");
          if (TEST_ONLY.includes(target)) {
            if (fromPackage.startsWith("src/"))
              violations.push({ where, message: `imports ${bare}: a test-only package is not for src/` });
          } else if (allowed !== "*" && !allowed.includes(target)) {
            violations.push({ where, message: `imports ${bare}: the edge ${pkg.folder} → ${target} is not allowed` });
          }
          const wiring = WIRING_FILES[pkg.folder]?.[target];
          if (wiring && fromPackage.startsWith("src/") && !wiring.includes(fromPackage)) {
            violations.push({
              where,
              message: `imports ${bare}: ${pkg.folder} may import ${target} only from ${wiring.join(", ")}`,
            });
          }
        } else if (spec.startsWith(".")) {
          const resolved = path.resolve(path.dirname(file), spec);
          if (resolved !== pkg.dir && !resolved.startsWith(pkg.dir + path.sep)) {
            violations.push({ where, message: `relative import "${spec}" leaves ${rel}` });
          }
        }
      }
    }
    for (const cycle of fileCycles(fileImports)) {
      violations.push({
        where: rel,
        message: `import cycle among ${cycle.length} files: ${cycle.map((file) => path.relative(pkg.dir, file)).join(", ")}`,
      });
    }
  }

  // The table is acyclic; a declared graph could still loop through folders outside it.
  const visiting = new Set();
  const done = new Set();
  const visit = (node, trail) => {
    if (done.has(node)) return;
    if (visiting.has(node)) {
      violations.push({ where: "workspace", message: `dependency cycle: ${[...trail, node].join(" → ")}` });
      return;
    }
    visiting.add(node);
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
    visiting.delete(node);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return violations;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
  const violations = checkLayering(root);
  for (const v of violations) console.error(`layering: ${v.where}: ${v.message}`);
  if (violations.length > 0) process.exit(1);
  console.log(`layering: ok (${listPackages(root).length} packages)`);
}
