// The published packages' README examples type-check against the built types, as a
// user who pastes them would compile them: a ```ts block as TypeScript, a ```js block
// that is a whole program (it imports) as checked JavaScript (JSDoc annotations count),
// both strict. Runs on the built `dist/` (pnpm test builds first).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

jest.setTimeout(180_000);

const root = path.join(__dirname, "..", "..");
const packages = fs
  .readdirSync(path.join(root, "packages"))
  .filter((name) => fs.existsSync(path.join(root, "packages", name, "README.md")))
  .filter((name) => !JSON.parse(fs.readFileSync(path.join(root, "packages", name, "package.json"), "utf8")).private);

/** Every checked block of a README, as a file name and its code. */
function examples(name: string): { file: string; code: string }[] {
  const text = fs.readFileSync(path.join(root, "packages", name, "README.md"), "utf8");
  return [...text.matchAll(/```(js|ts)\n([\s\S]*?)```/g)]
    .map((match, index) => ({ lang: match[1]!, code: match[2]!, index }))
    .filter(({ lang, code }) => lang === "ts" || /^import /m.test(code))
    .map(({ lang, code, index }) => ({ file: `${name}-${index}.${lang === "ts" ? "mts" : "mjs"}`, code }));
}

it("type-checks every published README's examples against the built types", () => {
  const dir = fs.mkdtempSync(path.join(root, "node_modules", ".cache-readme-types-"));
  try {
    const files = packages.flatMap(examples);
    for (const { file, code } of files) fs.writeFileSync(path.join(dir, file), code);
    const paths = Object.fromEntries(
      fs.readdirSync(path.join(root, "packages")).flatMap((name) => [
        [`@indus/${name}`, [path.join(root, "packages", name, "dist", "index.d.ts")]],
        [`@indus/${name}/*`, [path.join(root, "packages", name, "dist", "*.d.ts")]],
      ]),
    );
    const compilerOptions = {
      strict: true,
      noImplicitAny: false,
      allowJs: true,
      checkJs: true,
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      paths,
    };
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions, files: files.map((f) => f.file) }),
    );
    const tsc = require.resolve("typescript/bin/tsc", { paths: [root] });
    const result = spawnSync(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json")], { encoding: "utf8" });
    expect(result.stdout).toBe("");
    expect(result.status).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
