import { defineConfig } from "tsup";

// One bundled, fast-starting binary: every dependency is inlined, and each
// command is its own lazily loaded chunk so `--version` loads almost nothing.
export default defineConfig({
  entry: { indusr: "src/main.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  splitting: true,
  sourcemap: true,
  dts: false,
  noExternal: [/.*/],
  shims: false,
  banner: {
    // Bundled CommonJS dependencies call require() for Node builtins.
    js: "#!/usr/bin/env node\nimport { createRequire as __indusCreateRequire } from 'node:module';\nconst require = __indusCreateRequire(import.meta.url);",
  },
});
