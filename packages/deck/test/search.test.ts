import fs from "node:fs";
import path from "node:path";
import { findRipgrep, resolveSearchEngine } from "@indus/deck";
import { requireTool } from "@indus/testkit";
import { deckAt, tempDir, write } from "./helpers";

function tree(): string {
  const root = tempDir("deck-search-");
  fs.mkdirSync(path.join(root, ".git"));
  write(root, {
    ".gitignore": "build/\n*.log\n!keep.log\n",
    ".git/config": "needle in git internals\n",
    "src/a.ts": "const needle = 1;\nconst other = 2;\nconst x = needle + other;\n",
    "src/b.js": "// Needle uppercase\nlet y = 0;\n",
    "src/deep/c.ts": "alpha\nbeta\nneedle here\ngamma\ndelta\n",
    "src/deep/.gitignore": "secret.ts\n",
    "src/deep/secret.ts": "needle secret\n",
    "docs/readme.md": "no match\n",
    "build/out.js": "needle in build\n",
    "debug.log": "needle in log\n",
    "keep.log": "needle kept\n",
    ".hidden/h.ts": "needle hidden\n",
    "bin.dat": Buffer.from("needle\0binary"),
  });
  return root;
}

const engines: ["js" | "ripgrep"][] = [["js"], ...(findRipgrep() ? [["ripgrep"] as ["ripgrep"]] : [])];

it("finds ripgrep on this machine (installed from Debian; CI installs it too)", () => {
  requireTool("rg", "ripgrep"); // when missing, fails naming the tool and how to install it
  expect(findRipgrep()).toBeDefined();
});

describe.each(engines)("grep and find with the %s engine", (engine: "js" | "ripgrep") => {
  const root = tree();
  const { call } = deckAt(root, { options: { searchEngine: engine } });

  it("lists matching files, sorted, honouring .gitignore at every level, skipping .git and binaries", async () => {
    const out = await call("grep", { pattern: "needle" });
    expect(out.isError).toBe(false);
    expect(out.text.split("\n")).toEqual([".hidden/h.ts", "keep.log", "src/a.ts", "src/deep/c.ts"]);
  });

  it("shows content as path:line:text with context lines and separators", async () => {
    const out = await call("grep", { pattern: "needle", output_mode: "content", include: "*.ts", context: 1 });
    expect(out.text.split("\n")).toEqual([
      ".hidden/h.ts:1:needle hidden",
      "--",
      "src/a.ts:1:const needle = 1;",
      "src/a.ts-2-const other = 2;",
      "src/a.ts:3:const x = needle + other;",
      "--",
      "src/deep/c.ts-2-beta",
      "src/deep/c.ts:3:needle here",
      "src/deep/c.ts-4-gamma",
    ]);
  });

  it("counts matching lines per file", async () => {
    const out = await call("grep", { pattern: "needle", output_mode: "count", path: "src" });
    expect(out.text.split("\n")).toEqual(["3 matching lines in 2 files", "src/a.ts:2", "src/deep/c.ts:1"]);
  });

  it("supports ignore_case, include globs with negation, literal patterns and a single-file path", async () => {
    expect((await call("grep", { pattern: "needle", ignore_case: true, include: ["*.js"] })).text).toBe("src/b.js");
    expect((await call("grep", { pattern: "needle", include: ["*.ts", "!**/deep/**"] })).text.split("\n")).toEqual([
      ".hidden/h.ts",
      "src/a.ts",
    ]);
    expect((await call("grep", { pattern: "needle + other", literal: true })).text).toBe("src/a.ts");
    expect((await call("grep", { pattern: "beta", path: "src/deep/c.ts", output_mode: "content" })).text).toBe(
      "src/deep/c.ts:2:beta",
    );
  });

  it("matches across lines with multiline", async () => {
    const out = await call("grep", { pattern: "beta\\nneedle", multiline: true, output_mode: "content" });
    expect(out.text.split("\n")).toEqual(["src/deep/c.ts:2:beta", "src/deep/c.ts:3:needle here"]);
  });

  it("caps results and says so", async () => {
    const out = await call("grep", { pattern: "needle", limit: 2 });
    expect(out.text.split("\n").slice(0, 2)).toEqual([".hidden/h.ts", "keep.log"]);
    expect(out.text).toMatch(/showing 2 of 4 files/);
  });

  it("reports no matches plainly, a bad regex and a missing path as errors", async () => {
    expect((await call("grep", { pattern: "zzzz-not-there" })).text).toMatch(/No matches/);
    const bad = await call("grep", { pattern: "(unclosed" });
    expect(bad.isError).toBe(true);
    expect((await call("grep", { pattern: "x", path: "nope" })).text).toMatch(/does not exist/);
  });

  it("find matches bare globs at any depth and path globs from the root", async () => {
    expect((await call("find", { pattern: "*.ts" })).text.split("\n")).toEqual([
      ".hidden/h.ts",
      "src/a.ts",
      "src/deep/c.ts",
    ]);
    expect((await call("find", { pattern: "src/**/*.ts" })).text.split("\n")).toEqual(["src/a.ts", "src/deep/c.ts"]);
    expect((await call("find", { pattern: "*.ts", path: "src/deep" })).text).toBe("src/deep/c.ts");
    expect((await call("find", { pattern: "*.log" })).text).toBe("keep.log");
    const capped = await call("find", { pattern: "*", limit: 3 });
    expect(capped.text).toMatch(/showing 3 of \d+ matches/);
    expect((await call("find", { pattern: "*.rs" })).text).toMatch(/No files match/);
  });
});

describe("engine choice", () => {
  it("uses ripgrep when on PATH, the JS engine when forced (option or INDUS_SEARCH_ENGINE) or when rg is absent", async () => {
    const PATH = process.env.PATH;
    expect(resolveSearchEngine({ env: { PATH } }).kind).toBe("ripgrep");
    expect(resolveSearchEngine({ searchEngine: "js", env: { PATH } }).kind).toBe("js");
    expect(resolveSearchEngine({ env: { PATH, INDUS_SEARCH_ENGINE: "js" } }).kind).toBe("js");
    expect(resolveSearchEngine({ env: { PATH: "/nonexistent" } }).kind).toBe("js");
    expect(resolveSearchEngine({ searchEngine: "ripgrep", env: { PATH: "/nonexistent" } }).kind).toBe("js");
    // Without rg on PATH the tools still work, through the JS engine.
    const root = tree();
    const { call } = deckAt(root, { options: { env: { PATH: "/nonexistent" } } });
    expect((await call("grep", { pattern: "needle" })).text.split("\n")).toEqual([
      ".hidden/h.ts",
      "keep.log",
      "src/a.ts",
      "src/deep/c.ts",
    ]);
    expect((await call("find", { pattern: "*.ts" })).text.split("\n")).toEqual([
      ".hidden/h.ts",
      "src/a.ts",
      "src/deep/c.ts",
    ]);
  });
});

describe("ls", () => {
  it("lists sorted entries, marks directories, hides ignored entries unless all", async () => {
    const root = tree();
    const { call } = deckAt(root);
    const out = await call("ls", {});
    expect(out.text.split("\n").slice(0, 9)).toEqual([
      "./",
      ".gitignore",
      ".hidden/",
      "bin.dat",
      "docs/",
      "keep.log",
      "src/",
      "",
      expect.stringMatching(/2 entries ignored by .gitignore hidden/),
    ]);
    const all = await call("ls", { all: true });
    expect(all.text).toContain("build/");
    expect(all.text).toContain("debug.log");
    const deep = await call("ls", { path: "src", depth: 2 });
    expect(deep.text.split("\n")).toEqual(["src/", "a.ts", "b.js", "deep/", "  .gitignore", "  c.ts"]);
    expect((await call("ls", { path: "src/a.ts" })).isError).toBe(true);
  });
});
