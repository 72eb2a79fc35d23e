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

  it("runs a command from the command tree", async () => {
    const { stdout } = await run(process.execPath, [bin, "tools", "--no-tools"], {
      cwd: sandbox.cwd,
      env: sandbox.env,
    });
    expect(stdout).toContain("0 tools");
  });
});
