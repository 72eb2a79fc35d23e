// Shared Jest settings for every workspace package. TypeScript is compiled by
// SWC (no type checking in the test loop: `turbo run typecheck` does that), and
// `@indus/*` imports resolve to the sibling package's source so a test never
// depends on a stale `dist/`.
const path = require("node:path");

const root = __dirname;

/** @param {string} dir the package folder */
module.exports = function preset(dir) {
  return {
    rootDir: dir,
    displayName: path.basename(dir),
    testEnvironment: "node",
    // Tests wait on real processes and sockets; on a loaded 2-core machine a spawn
    // alone can take seconds. Jest's 5 s default then fails a correct test: the
    // ceiling only catches hangs, so it is generous (a test that means a deadline
    // asserts on events, never on the clock).
    testTimeout: 60_000,
    testMatch: ["<rootDir>/test/**/*.test.ts"],
    // A test that times out inside testkit's `waitFor` fails naming the event it waited for.
    setupFilesAfterEnv: [path.join(root, "packages/testkit/src/report-pending-waits.ts")],
    transform: {
      "^.+\\.(t|j|mj|cj)sx?$": [
        "@swc/jest",
        {
          jsc: { parser: { syntax: "typescript" }, target: "es2022" },
          module: { type: "commonjs" },
          sourceMaps: "inline",
        },
      ],
    },
    // ESM-only dependencies must be transformed too (Jest's module system is CJS here).
    transformIgnorePatterns: [
      "/node_modules/\\.pnpm/(?!(ulid|pkce-challenge|eventsource-parser|eventsource|jose|@modelcontextprotocol\\+client)@)",
    ],
    moduleNameMapper: {
      "^@indus/([a-z-]+)$": path.join(root, "packages/$1/src/index.ts"),
      "^@indus/([a-z-]+)/testing$": path.join(root, "packages/$1/src/testing/index.ts"),
      "^@indus/([a-z-]+)/internal$": path.join(root, "packages/$1/src/internal.ts"),
      // Any other subpath (`@indus/deck/trust`): its entry file under `src/entries/`.
      "^@indus/([a-z-]+)/([a-z-]+)$": path.join(root, "packages/$1/src/entries/$2.ts"),
    },
    moduleFileExtensions: ["ts", "tsx", "js", "mjs", "cjs", "json"],
  };
};
