/**
 * Runs the README's example block as written (its import swapped for the
 * package under test) and checks every printed line against the comment the
 * README shows under it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as api from "@indus/schema-normalizer";

const readme = readFileSync(join(__dirname, "..", "README.md"), "utf8");
const example = /## Example\s+```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";

it("has an example that imports the package", () => {
  expect(example).toContain('import { normalizeSchema } from "@indus/schema-normalizer";');
});

it("prints exactly what the README says it prints", () => {
  const body = example.replace(/^import .*$/m, "");
  const printed: string[] = [];
  const console = { log: (...values: unknown[]) => printed.push(values.map(String).join(" ")) };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the test runs the README example text as written
  new Function("normalizeSchema", "console", body)(api.normalizeSchema, console);
  const promised = [...example.matchAll(/^console\.log\(.*\);\n\/\/ (.*)$/gm)].map((match) => match[1]);
  expect(promised).toHaveLength(3);
  expect(printed).toEqual(promised);
});
