import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as deck from "@indus/deck";
import * as fleet from "@indus/fleet";

// @indus/deck's README example mounts MCP servers through `fleetMount` from
// @indus/fleet (the deck does not depend on the fleet), so it runs here, where
// the CLI wires the two together.
jest.setTimeout(120_000);

const README = path.join(__dirname, "..", "..", "..", "packages", "deck", "README.md");
const DECK_MODULES = path.join(__dirname, "..", "..", "..", "packages", "deck", "node_modules");

it("runs the README example as written and prints what the README says", async () => {
  const readme = fs.readFileSync(README, "utf8");
  const section = readme.slice(readme.indexOf("## Mounting MCP servers"));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1] as string;
  const expected = /```text\n([\s\S]*?)```/.exec(section)?.[1] as string;
  expect(code).toBeDefined();
  // Bind the block's imports: "@indus/deck" and "@indus/fleet" to the source, node builtins to themselves.
  const builtins: Record<string, unknown> = { "node:fs": fs, "node:os": os, "node:path": path };
  let body = code.replace(
    /^import \{([^}]+)\} from "@indus\/(deck|fleet)";$/gm,
    (_all, names: string, pkg: string) => `const {${names}} = ${pkg}Api;`,
  );
  body = body.replace(/^import (\w+) from "(node:\w+)";$/gm, (_all, name: string, mod: string) => {
    expect(builtins[mod]).toBeDefined();
    return `const ${name} = builtins[${JSON.stringify(mod)}];`;
  });
  expect(body).not.toMatch(/^import /m);
  const printed: string[] = [];
  const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
  // The example expects `mcp-server-everything` on PATH (installed globally); here it comes from devDependencies.
  const saved = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "deck-readme-home-"));
  process.env.PATH = `${path.join(DECK_MODULES, ".bin")}${path.delimiter}${process.env.PATH}`;
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  try {
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...a: unknown[]) => Promise<void>;
    await new AsyncFunction("deckApi", "fleetApi", "builtins", "console", body)(deck, fleet, builtins, fakeConsole);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(home, { recursive: true, force: true });
  }
  expect(`${printed.join("\n")}\n`).toBe(expected);
});
