/**
 * A user's ESM script that awaits `endpoint.close()` at top level must finish
 * it: shutdown waits on unref'd timers, so without something holding the
 * event loop Node exited with code 13 (unsettled top-level await) half-way
 * through the close, as the endpoint and fleet README examples did.
 * Runs the built package (CI builds first).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
const dir = path.join(root, "packages", "endpoint");
const everything = path.join(root, "node_modules", ".bin", "mcp-server-everything");

jest.setTimeout(60_000);

it("an ESM script that awaits close() at top level exits 0 after the close", () => {
  const script = path.join(dir, `tla-close-${process.pid}.mjs`);
  fs.writeFileSync(
    script,
    `import { createServerEndpoint, stdioServer } from "@indus/endpoint";
const endpoint = createServerEndpoint(stdioServer("everything", ${JSON.stringify(everything)}));
await endpoint.open();
await endpoint.close();
console.log(endpoint.phase);
`,
  );
  try {
    const out = execFileSync(process.execPath, [script], { cwd: dir, encoding: "utf8" });
    expect(out.trim()).toBe("closed");
  } finally {
    fs.rmSync(script, { force: true });
  }
});
