import { defineConfig, type Options } from "tsup";
import { writeThirdPartyNotices } from "./scripts/third-party-notices.mjs";

// One bundled, fast-starting binary: every dependency is inlined, and each
// command is its own lazily loaded chunk. The entry (`indusr.js`) is built on
// its own, without shared chunks, so `--version` loads one small module.
// No source maps ship (they were 9 MB of a 14 MB install); the licences of
// every inlined package go into dist/THIRD-PARTY-NOTICES.md instead.
const cli: Options = {
  entry: { program: "src/program.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  // The build script empties dist/ first: the two builds below run side by side.
  clean: false,
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
};

// The entry: `--version`, else the command tree (`program.js`, loaded by a non-literal specifier so it stays out).
// Both formats: `indusr.cjs` is the installed command (no ES module loader for `--version`), `indusr.js` the same
// for scripts that run the ES module path.
const entry: Options = {
  entry: { indusr: "src/main.ts" },
  format: ["esm", "cjs"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: false,
  splitting: false,
  sourcemap: false,
  dts: false,
  banner: { js: "#!/usr/bin/env node" },
};

// The page `/app` serves to the browser: the ext-apps host bridge and its glue, one file, no Node.
const appHost: Options = {
  entry: { "app-host": "src/apps/browser/host.ts" },
  format: ["esm"],
  platform: "browser",
  target: "es2022",
  outDir: "dist",
  clean: false,
  splitting: false,
  sourcemap: false,
  minify: true,
  dts: false,
  noExternal: [/.*/],
};

export default defineConfig([entry, cli, appHost]);
