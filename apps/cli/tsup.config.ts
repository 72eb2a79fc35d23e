import { defineConfig, type Options } from "tsup";
import { writeThirdPartyNotices } from "./scripts/third-party-notices.mjs";

// One bundled, fast-starting binary: every dependency is inlined, and each
// command is its own lazily loaded chunk. The entry (`indusr.js`) is built on
// its own, without shared chunks, so `--version` loads one small module.
// No source maps ship (they were 9 MB of a 14 MB install); the licences of
// every inlined package go into dist/THIRD-PARTY-NOTICES.md instead.
/**
 * zod's namespace exports (`z.locales`) keep every locale in the bundle (~360 KB of the ~2.5 MB a command
 * loads). indusr formats zod's messages in English only: its locales module is bundled with `en` alone.
 */
type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

const englishZod: Plugin = {
  name: "english-zod",
  setup(build) {
    build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer)
        ? { path: "zod/v4/locales", namespace: "english-zod", pluginData: `${args.resolveDir}/../locales` }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "english-zod" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: args.pluginData as string,
    }));
  },
};

/**
 * The SDK's Node shims bring its default JSON Schema validator, a bundled Ajv (~290 KB in each of the client and
 * the server that every command connecting or serving loads). The endpoint and the provider host give every client
 * and server their own validator, so that default never runs: the bundle takes the SDK's own lighter default (its
 * `validators/cf-worker` export) instead. `lines` are the shim module's other exports.
 */
function lightShims(sdk: "client" | "server", lines: readonly string[]): Plugin {
  const namespace = `light-${sdk}-shims`;
  return {
    name: namespace,
    setup(build) {
      const filter = new RegExp(`^@modelcontextprotocol/${sdk}/_shims$`);
      build.onResolve({ filter }, (args) => ({ path: `${sdk}-shims`, namespace, pluginData: args.resolveDir }));
      build.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents: [
          ...lines,
          `export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from "@modelcontextprotocol/${sdk}/validators/cf-worker";`,
        ].join("\n"),
        resolveDir: args.pluginData as string,
      }));
    },
  };
}

const lightClientShims = lightShims("client", ["export const CORS_IS_POSSIBLE = false;"]);
const lightServerShims = lightShims("server", ['export { default as process } from "node:process";']);

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
  esbuildPlugins: [englishZod, lightClientShims, lightServerShims],
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
