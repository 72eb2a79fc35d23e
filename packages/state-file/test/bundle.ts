/**
 * A fresh CommonJS bundle of src/ for child processes (outside Jest), so a
 * test never runs a stale dist/. Third-party packages stay external.
 */
import path from "node:path";

const packageRoot = path.join(__dirname, "..");

/** Bundles into `test/.build/<name>/` (one folder per test file: files run in parallel). */
export async function bundleSource(name: string): Promise<string> {
  const { build } = await import("tsup");
  const outDir = path.join(__dirname, ".build", name);
  await build({
    entry: { "state-file": path.join(packageRoot, "src", "index.ts") },
    outDir,
    format: ["cjs"],
    target: "node20",
    dts: false,
    clean: true,
    silent: true,
    external: ["proper-lockfile"],
    noExternal: [/^@indus\//],
    esbuildOptions(options) {
      options.alias = { "@indus/contract": path.join(packageRoot, "..", "contract", "src", "index.ts") };
    },
  });
  return path.join(outDir, "state-file.cjs");
}
