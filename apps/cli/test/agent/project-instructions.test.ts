import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  instructionsSection,
  loadInstructions,
  MAX_INSTRUCTION_BYTES,
} from "../../src/agent/session/project-instructions";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-instr-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): string {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  return full;
}

it("reads the user's file, then the project root's, then the working folder's; CLAUDE.md only where AGENTS.md is absent", () => {
  const user = write("home/.indusvx/AGENTS.md", "user rule\n");
  fs.mkdirSync(path.join(root, "repo", ".git"), { recursive: true });
  const top = write("repo/AGENTS.md", "root rule");
  write("repo/CLAUDE.md", "claude root rule");
  const sub = write("repo/pkg/CLAUDE.md", "pkg rule");
  const loaded = loadInstructions({ cwd: path.join(root, "repo", "pkg"), home: path.join(root, "home") });
  expect(loaded.files.map((f) => [f.scope, f.file, f.text])).toEqual([
    ["user", user, "user rule"],
    ["project", top, "root rule"],
    ["project", sub, "pkg rule"],
  ]);
  const section = instructionsSection(loaded.files).join("\n");
  expect(section).toContain(`## ${top} (project)\nroot rule`);
  expect(section).not.toContain("claude root rule");
});

it("without a .git folder, reads only the working folder; caps a runaway file and says so", () => {
  write("outside/AGENTS.md", "not mine");
  const big = write("outside/work/AGENTS.md", "x".repeat(MAX_INSTRUCTION_BYTES + 10));
  const loaded = loadInstructions({ cwd: path.join(root, "outside", "work"), home: path.join(root, "nohome") });
  expect(loaded.files.map((f) => f.file)).toEqual([big]);
  expect(loaded.files[0]!.text).toHaveLength(MAX_INSTRUCTION_BYTES);
  expect(instructionsSection(loaded.files).join("\n")).toContain(
    `[truncated: the file has ${MAX_INSTRUCTION_BYTES + 10} bytes`,
  );
});

it("gives no section when there is nothing to read", () => {
  expect(instructionsSection(loadInstructions({ cwd: root, home: root }).files)).toEqual([]);
});
