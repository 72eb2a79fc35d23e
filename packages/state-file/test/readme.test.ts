/**
 * The README's examples run as written (ESM and CommonJS, in a plain Node
 * process against a fresh bundle of src/) and print what the README says.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { bundleSource } from "./bundle";

jest.setTimeout(60_000);

function block(readme: string, lang: string): string {
  const code = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(readme.slice(readme.indexOf("## Example")))?.[1];
  if (!code) throw new Error(`README has no ${lang} block`);
  return code;
}

function run(code: string, bundle: string, ext: string): string {
  const file = path.join(path.dirname(bundle), `readme-example.${ext}`);
  fs.writeFileSync(file, code.replaceAll('"@indus/state-file"', JSON.stringify(bundle)));
  return execFileSync(process.execPath, [file], { encoding: "utf8" });
}

it("runs the README examples as written and prints what the README says", async () => {
  const bundle = await bundleSource("readme");
  const readme = fs.readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
  expect(run(block(readme, "js"), bundle, "mjs")).toBe(block(readme, "text"));
  expect(run(block(readme, "cjs"), bundle, "cjs")).toBe("[ 'one', 'two' ]\n");
});
