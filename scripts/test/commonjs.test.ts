/**
 * A CommonJS consumer: `require()` of every library's built package (through
 * its exports map, as a CJS project would) gives the same names as `import`.
 * Needs `pnpm build` (CI builds first); scripts/pack-check.mjs does the same
 * from the packed tarballs.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
const LIBS = ["contract", "schema-normalizer", "ledger", "state-file", "endpoint", "fleet", "provider-host", "deck"];

jest.setTimeout(60_000);

it.each(LIBS)("@indus/%s: require() and import give the same exports", (lib) => {
  const dir = path.join(root, "packages", lib);
  const script = `
    const cjs = Object.keys(require("@indus/${lib}")).sort();
    import("@indus/${lib}").then((esm) => {
      const keys = Object.keys(esm).filter((k) => k !== "default").sort();
      console.log(JSON.stringify({ cjs, esm: keys }));
    });`;
  // Run inside the package folder so the package resolves itself by name, through its exports map.
  const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" })) as {
    cjs: string[];
    esm: string[];
  };
  expect(out.cjs.length).toBeGreaterThan(0);
  expect(out.cjs).toEqual(out.esm);
});
