import { defineConfig } from "tsup";
import { writeThirdPartyNotices } from "./scripts/third-party-notices.mjs";

// One bundled, fast-starting binary: every dependency is inlined, and each
// command is its own lazily loaded chunk so `--version` loads almost nothing.
// No source maps ship (they were 9 MB of a 14 MB install); the licences of
// every inlined package go into dist/THIRD-PARTY-NOTICES.md instead.
export default defineConfig({
  entry: { indusr: "src/main.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  splitting: true,
  sourcemap: false,
  metafile: true,
  dts: false,
  noExternal: [/.*/],
  shims: false,
  banner: {
    // Bundled CommonJS dependencies call require() for Node builtins.
    js: "#!/usr/bin/env node\nimport { createRequire as __indusCreateRequire } from 'node:module';\nconst require = __indusCreateRequire(import.meta.url);",
  },
  onSuccess: async () => {
    writeThirdPartyNotices("dist");
  },
});
