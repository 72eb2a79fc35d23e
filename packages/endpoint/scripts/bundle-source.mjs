/**
 * Bundles the current src/ (with sibling @indus/* sources) into one ESM file,
 * for scripts that must run the endpoint in a plain Node process (outside
 * Jest) without depending on a fresh dist/: the conformance adapter and the
 * unhandled-rejection probe. Third-party packages stay external and resolve
 * from this package's node_modules.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.join(packageRoot, "..", "..");

/** This package's third-party dependencies (and their subpaths) stay imports. */
function externals() {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8"));
  return Object.keys(manifest.dependencies ?? {})
    .filter((name) => !name.startsWith("@indus/"))
    .map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(/|$)`));
}

/** Writes `<outDir>/endpoint.mjs` and returns its path. `outDir` must sit inside this package. */
export async function bundleSource(outDir) {
  const { build } = await import("tsup");
  await build({
    entry: { endpoint: path.join(packageRoot, "src", "index.ts") },
    outDir,
    format: ["esm"],
    outExtension: () => ({ js: ".mjs" }),
    target: "node20",
    dts: false,
    clean: true,
    silent: true,
    // Explicit, so the result does not depend on the cwd's package.json (tsup's default).
    external: externals(),
    noExternal: [/^@indus\//],
    // Sibling packages' CommonJS dependencies (state-file's proper-lockfile) are inlined and require Node builtins.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    esbuildOptions(options) {
      options.alias = {
        "@indus/contract": path.join(repoRoot, "packages", "contract", "src", "index.ts"),
        "@indus/schema-normalizer": path.join(repoRoot, "packages", "schema-normalizer", "src", "index.ts"),
        "@indus/state-file": path.join(repoRoot, "packages", "state-file", "src", "index.ts"),
      };
    },
  });
  return path.join(outDir, "endpoint.mjs");
}
