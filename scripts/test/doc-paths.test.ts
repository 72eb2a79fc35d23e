// Every repository path AGENTS.md and CONTRIBUTING.md name must exist: a map
// that points at moved files sends a newcomer nowhere. A path is a backticked
// token or a link target that names a file or folder: root-relative
// (`packages/deck/src/builtin.ts`), package-relative (`endpoint/src/tool-names.ts`,
// `src/fault-sites.ts`), or a bare name (`brand.ts`, `session/`, the file the
// sentence's full path sits beside) that some tracked path ends with. `<name>`
// stands for any name: its folder must exist.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
const DOCS = ["AGENTS.md", "CONTRIBUTING.md"];
const FILE_LIKE = /\.(ts|mts|cts|mjs|cjs|js|md|json|sh|yaml|yml|toml|txt)$/;

const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
const trackedDirs = new Set(
  tracked.flatMap((file) =>
    file
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);
const exists = (rel: string): boolean => {
  const clean = rel.replace(/\/$/, "");
  return clean === "" || trackedDirs.has(clean) || tracked.includes(clean) || fs.existsSync(path.join(root, clean));
};
/** Top-level folders that hold packages (`packages/<x>`, `apps/<x>`). */
const packageRoots = ["packages", "apps"].flatMap((group) =>
  fs.existsSync(path.join(root, group)) ? fs.readdirSync(path.join(root, group)).map((name) => `${group}/${name}`) : [],
);

/** Path-like words in one line: backticked tokens (split on spaces, for commands) and link targets. */
function candidates(line: string): string[] {
  const words = [...line.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.split(/\s+/));
  const links = [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return [...words, ...links].filter(
    (word) =>
      (word.includes("/") || FILE_LIKE.test(word)) &&
      !word.startsWith("@") &&
      !word.startsWith("-") &&
      !word.startsWith("#") &&
      !word.includes("://") &&
      !word.includes("*") &&
      !(word.startsWith(".") && !word.includes("/")),
  );
}

/** The part before a `<placeholder>` segment: that folder must exist. */
function concrete(word: string): string {
  const at = word.indexOf("<");
  return at === -1 ? word : word.slice(0, word.lastIndexOf("/", at) + 1);
}

function resolves(word: string): boolean {
  const rel = concrete(word).replace(/^\.\//, "");
  if (exists(rel)) return true;
  // `endpoint/src/x.ts`, `src/x.ts`: inside some package.
  if (rel.includes("/") && packageRoots.some((pkg) => exists(`${pkg}/${rel}`) || exists(`packages/${rel}`)))
    return true;
  // A bare name: some tracked file or folder ends with it.
  const name = rel.replace(/\/$/, "");
  return [...tracked, ...trackedDirs].some((file) => file === name || file.endsWith(`/${name}`));
}

describe.each(DOCS)("%s", (doc) => {
  it("names only paths that exist", () => {
    const missing: string[] = [];
    fs.readFileSync(path.join(root, doc), "utf8")
      .split("\n")
      .forEach((line, index) => {
        for (const word of candidates(line)) {
          if (!resolves(word)) missing.push(`${doc}:${index + 1}: ${word}`);
        }
      });
    expect(missing).toEqual([]);
  });
});
