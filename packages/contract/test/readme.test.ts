/**
 * The README's example runs as written (against the built package) and prints
 * what its comments say.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const pkg = path.join(__dirname, "..");

it("runs the README example", () => {
  const readme = fs.readFileSync(path.join(pkg, "README.md"), "utf8");
  const code = /```js\n([\s\S]*?)```/.exec(readme)![1]!;
  const dist = path.join(pkg, "dist", "index.js");
  if (!fs.existsSync(dist)) execFileSync("pnpm", ["run", "build"], { cwd: pkg, stdio: "ignore" });
  const output = execFileSync(
    process.execPath,
    ["--input-type=module", "-e", code.replace('"@indus/contract"', JSON.stringify(dist))],
    { encoding: "utf8" },
  );
  expect(output.trim().split("\n")).toEqual([
    "[ { path: 'url', message: 'must be an http:// or https:// URL' } ]",
    "{}",
    "retry later: tools/call took longer than 30000 ms",
    "github__create_issue",
  ]);
  // The comments in the README promise the same values.
  expect(code).toContain("// [ { path: 'url', message: 'must be an http:// or https:// URL' } ]");
  expect(code).toContain("// github__create_issue");
});
