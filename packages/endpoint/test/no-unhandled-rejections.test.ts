/**
 * No server failure ever becomes an unhandled rejection in the host. Jest
 * sandboxes `process` events, so the failures run in a plain Node process
 * (fixtures/unhandled-probe.mjs) against a fresh bundle of src/.
 */
import { execFile } from "node:child_process";
import path from "node:path";

jest.setTimeout(120_000);

it("turns every startup, HTTP, crash, timeout and abort failure into a handled fault", async () => {
  const root = path.join(__dirname, "..");
  const { bundleSource } = await import(path.join(root, "scripts", "bundle-source.mjs"));
  const bundle: string = await bundleSource(path.join(root, "test", ".build"));
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(__dirname, "fixtures", "unhandled-probe.mjs"), bundle],
      { timeout: 100_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
  const report = JSON.parse(output.trim().split("\n").pop()!) as {
    unhandled: number;
    faults: Record<string, string>;
    samples: string[];
  };
  expect(report.samples).toEqual([]);
  expect(report.unhandled).toBe(0);
  expect(report.faults).toEqual({
    exits: "spawn-failed",
    missing: "spawn-failed",
    mute: "timeout",
    noisy: "protocol",
    "http 401": "unauthorized",
    "http 500": "transport",
    "http reset": "transport",
    "http silent": "timeout",
    crash: "transport",
    "call timeout": "timeout",
    abort: "tool-error",
  });
});
