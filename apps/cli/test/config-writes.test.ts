/**
 * Config writes under concurrency and odd files: many `mcp add` at once lose
 * nothing, a symlinked config stays a symlink, BOM and CRLF survive an edit.
 * Real processes; `INDUSR_CONCURRENT_WRITERS` raises the count for a hand run.
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "jsonc-parser";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";

jest.setTimeout(120_000);

const WRITERS = Number(process.env.INDUSR_CONCURRENT_WRITERS ?? 12);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const COMMENTED = `{
  // team servers: keep this comment
  "servers": {
    "seed": { "command": "node", "args": ["seed.js"] } // the first one
  }
}
`;

async function addMany(count: number): Promise<number[]> {
  const runs = Array.from({ length: count }, (_, i) =>
    runCli(["mcp", "add", `s${i}`, "--", "node", `server-${i}.js`], { sandbox }),
  );
  return (await Promise.all(runs)).map((result) => result.code ?? -1);
}

function serversIn(file: string): string[] {
  const errors: unknown[] = [];
  const root = parse(fs.readFileSync(file, "utf8").replace(/^\uFEFF/, ""), errors as never, {
    allowTrailingComma: true,
  }) as {
    servers: Record<string, unknown>;
  };
  expect(errors).toEqual([]);
  return Object.keys(root.servers).sort();
}

const expected = (count: number) => ["seed", ...Array.from({ length: count }, (_, i) => `s${i}`)].sort();

it(`keeps every row when ${WRITERS} mcp add run at once, comments included`, async () => {
  const file = path.join(sandbox.cwd, ".indusvx", "mcp.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, COMMENTED);
  expect(await addMany(WRITERS)).toEqual(Array.from({ length: WRITERS }, () => 0));
  expect(serversIn(file)).toEqual(expected(WRITERS));
  const text = fs.readFileSync(file, "utf8");
  expect(text).toContain("// team servers: keep this comment");
  expect(text).toContain("// the first one");
  expect(fs.readdirSync(path.dirname(file))).toEqual(["mcp.json"]);
});

it("writes through a symlinked config to its target, under concurrency too", async () => {
  const shared = path.join(sandbox.root, "dotfiles", "mcp.json");
  fs.mkdirSync(path.dirname(shared), { recursive: true });
  fs.writeFileSync(shared, COMMENTED);
  const link = path.join(sandbox.cwd, ".indusvx", "mcp.json");
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.relative(path.dirname(link), shared), link);
  const count = process.env.INDUSR_CONCURRENT_WRITERS ? WRITERS : Math.min(WRITERS, 10);
  expect(await addMany(count)).toEqual(Array.from({ length: count }, () => 0));
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  expect(serversIn(shared)).toEqual(expected(count));
  const removed = await runCli(["mcp", "remove", "s0"], { sandbox });
  expect(removed.code).toBe(0);
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  expect(serversIn(shared)).not.toContain("s0");
});

it("edits a config with a UTF-8 BOM and CRLF line ends, keeping both", async () => {
  const file = path.join(sandbox.cwd, ".indusvx", "mcp.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `\uFEFF${COMMENTED.replace(/\n/g, "\r\n")}`);
  const added = await runCli(["mcp", "add", "extra", "--", "node", "x.js"], { sandbox });
  expect(added.stderr).toBe("");
  expect(added.code).toBe(0);
  const removed = await runCli(["mcp", "remove", "seed"], { sandbox });
  expect(removed.code).toBe(0);
  const text = fs.readFileSync(file, "utf8");
  expect(text.startsWith("\uFEFF")).toBe(true);
  expect(text.replace(/\r\n/g, "")).not.toContain("\n");
  expect(serversIn(file)).toEqual(["extra"]);
  const listed = await runCli(["mcp", "list", "--json"], { sandbox });
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("extra");
});

it("takes over a lock left behind by a crashed writer", async () => {
  const file = path.join(sandbox.cwd, ".indusvx", "mcp.json");
  fs.mkdirSync(`${file}.lock`, { recursive: true });
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(`${file}.lock`, old, old);
  const added = await runCli(["mcp", "add", "after-crash", "--", "node", "x.js"], { sandbox });
  expect(added.code).toBe(0);
  expect(serversIn(file)).toEqual(["after-crash"]);
  expect(fs.existsSync(`${file}.lock`)).toBe(false);
});
