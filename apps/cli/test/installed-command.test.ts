import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { makeSandbox, type Sandbox } from "./support/run-cli";

// The command npm installs is the package's `bin` file (the CommonJS build of the entry), not the
// `dist/indusr.js` the other tests run: it must answer `--version` and load the command tree beside it.
const packageDir = path.join(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
};
const run = promisify(execFile);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe.each(Object.entries(manifest.bin))("the installed command %s (%s)", (_name, file) => {
  const bin = path.join(packageDir, file);

  it("prints the package version", async () => {
    const { stdout } = await run(process.execPath, [bin, "--version"], { cwd: sandbox.cwd, env: sandbox.env });
    expect(stdout).toBe(`${manifest.version}\n`);
  });

  // `--version` is the yardstick of the start: it must cost no more of Node than `node -e 0` does.
  it("loads no more of Node's own modules for --version than node -e 0", async () => {
    const counter = path.join(sandbox.root, "count-modules.cjs");
    fs.writeFileSync(
      counter,
      'process.on("exit", () => require("node:fs").writeSync(2, `modules ${process.moduleLoadList.length}\\n`));',
    );
    const modules = async (args: string[]): Promise<number> => {
      const { stderr } = await run(process.execPath, ["-r", counter, ...args], { cwd: sandbox.cwd, env: sandbox.env });
      return Number(/modules (\d+)/.exec(stderr)?.[1]);
    };
    const [indusr, bare] = [await modules([bin, "--version"]), await modules(["-e", "0"])];
    expect(indusr).toBeGreaterThan(0);
    expect(indusr).toBeLessThanOrEqual(bare);
  });

  it("runs a command from the command tree", async () => {
    const { stdout } = await run(process.execPath, [bin, "tools", "--no-tools"], {
      cwd: sandbox.cwd,
      env: sandbox.env,
    });
    expect(stdout).toContain("0 tools");
  });
});
