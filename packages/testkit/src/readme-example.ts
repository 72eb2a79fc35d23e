/**
 * Runs a package README's example as written, so the README cannot drift
 * from the code: the first ```js block after a heading, its imports bound to
 * the packages under test, and what it prints compared (by the caller) with
 * the ```text block that follows it in the README.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The node builtins an example may import by default name (`import fs from "node:fs"`). */
const BUILTINS: Readonly<Record<string, unknown>> = { "node:fs": fs, "node:os": os, "node:path": path };

export interface ReadmeExample {
  /** The README file. */
  readonly readme: string;
  /** The heading the example follows, e.g. `## Example`. */
  readonly heading: string;
  /** What each `import { ... } from "<name>"` of the example binds to. */
  readonly packages: Readonly<Record<string, object>>;
  /** Put first on PATH while it runs (the example expects its servers installed globally). */
  readonly binDir: string;
}

/** The block's import lines as `const` bindings to `packages` / builtins; throws on any import it cannot bind. */
function bindImports(code: string, packages: ReadmeExample["packages"]): string {
  const body = code
    .replace(/^import \{([^}]+)\} from "([^"]+)";$/gm, (_all, names: string, name: string) => {
      if (!(name in packages)) throw new Error(`the README example imports "${name}", which the test does not give`);
      return `const {${names}} = packages[${JSON.stringify(name)}];`;
    })
    .replace(/^import (\w+) from "(node:\w+)";$/gm, (_all, binding: string, name: string) => {
      if (!(name in BUILTINS)) throw new Error(`the README example imports "${name}", which the test does not give`);
      return `const ${binding} = builtins[${JSON.stringify(name)}];`;
    });
  if (/^import /m.test(body)) throw new Error(`the README example has an import the test cannot bind:\n${body}`);
  return body;
}

/** Runs `body` with `HOME` a fresh folder (no `XDG_CONFIG_HOME`) and `binDir` first on PATH; restores both after. */
async function inScratchHome<T>(binDir: string, body: () => Promise<T>): Promise<T> {
  const saved = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "readme-home-"));
  process.env.PATH = `${binDir}${path.delimiter}${process.env.PATH}`;
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  try {
    return await body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** Runs the example; resolves with what it logged and what the README says it prints (both newline-ended). */
export async function runReadmeExample(example: ReadmeExample): Promise<{ printed: string; expected: string }> {
  const readme = fs.readFileSync(example.readme, "utf8");
  const start = readme.indexOf(example.heading);
  if (start < 0) throw new Error(`no "${example.heading}" in ${example.readme}`);
  const section = readme.slice(start);
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  const expected = /```text\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined || expected === undefined) throw new Error(`no js and text blocks after "${example.heading}"`);
  const body = bindImports(code, example.packages);
  const printed: string[] = [];
  const console = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
  type AsyncFunctionConstructor = new (...args: string[]) => (...values: unknown[]) => Promise<void>;
  const { constructor: AsyncFunction } = Object.getPrototypeOf(async () => undefined) as {
    constructor: AsyncFunctionConstructor;
  };
  const run = new AsyncFunction("packages", "builtins", "console", body);
  await inScratchHome(example.binDir, () => run(example.packages, BUILTINS, console));
  return { printed: `${printed.join("\n")}\n`, expected };
}
