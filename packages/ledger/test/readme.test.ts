import { readFileSync } from "node:fs";
import path from "node:path";
import * as api from "@indus/ledger";

/** The README's example block and the output it promises. */
function readmeExample(): { code: string; expected: string } {
  const readme = readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Example"));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  const expected = /```text\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code || !expected) throw new Error("README has no example block followed by its output");
  return { code, expected };
}

it("runs the README example as written and prints what the README says", () => {
  const { code, expected } = readmeExample();
  // The block is plain ESM that imports only from "@indus/ledger": bind those names to the source.
  const importLine = /^import \{([^}]+)\} from "@indus\/ledger";$/m;
  expect(code).toMatch(importLine);
  expect(code.match(/^import /gm)).toHaveLength(1);
  const body = code.replace(importLine, (_all, names: string) => `const {${names}} = ledgerApi;`);
  const printed: string[] = [];
  const fakeConsole = {
    log: (...args: unknown[]) => printed.push(args.map((a) => (typeof a === "string" ? a : String(a))).join(" ")),
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the test runs the README example text as written
  new Function("ledgerApi", "console", body)(api, fakeConsole);
  expect(`${printed.join("\n")}\n`).toBe(expected);
});
