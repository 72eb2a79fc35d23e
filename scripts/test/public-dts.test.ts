// The MCP SDK stays behind @indus/endpoint and @indus/provider-host: no SDK
// type may appear in the built declarations of the packages above them, so
// an SDK major is a major of endpoint and provider-host only. Run after
// `pnpm build` (`pnpm test` builds first).
import fs from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
const SDK_FREE = ["contract", "fleet", "deck"];

function declarationFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? declarationFiles(path.join(dir, entry.name))
        : /\.d\.(c|m)?ts$/.test(entry.name)
          ? [path.join(dir, entry.name)]
          : [],
    );
}

it.each(SDK_FREE)("@indus/%s's built .d.ts imports nothing from @modelcontextprotocol", (name) => {
  const files = declarationFiles(path.join(root, "packages", name, "dist"));
  expect(files.length).toBeGreaterThan(0); // built first
  const leaks = files.filter((file) => fs.readFileSync(file, "utf8").includes("@modelcontextprotocol"));
  expect(leaks.map((file) => path.relative(root, file))).toEqual([]);
});

// Fleet is typed against the contract: its published types name no endpoint type,
// so a fake endpoint or another implementation needs nothing of @indus/endpoint.
it("@indus/fleet's built .d.ts imports nothing from @indus/endpoint", () => {
  const files = declarationFiles(path.join(root, "packages", "fleet", "dist"));
  expect(files.length).toBeGreaterThan(0); // built first
  const endpointImport = /(?:from|import)\s+["']@indus\/endpoint["']/;
  const leaks = files.filter((file) => endpointImport.test(fs.readFileSync(file, "utf8")));
  expect(leaks.map((file) => path.relative(root, file))).toEqual([]);
});
