/**
 * A background process's capture files hold all of its output once it is
 * done: `done` (and so `stop`) waits for the files, not just for the pipes.
 */
import fs from "node:fs";
import { ProcessTable } from "../src/tools/process-table";
import { tempDir } from "./helpers";

jest.setTimeout(60_000);

const BYTES = 8 * 1024 * 1024;

it("settles only once the capture files hold every byte the process wrote", async () => {
  const cwd = tempDir();
  const table = new ProcessTable({ maxLines: 10, graceMs: 3_000, captureDir: cwd });
  const entry = table.start(`head -c ${BYTES} /dev/zero; head -c ${BYTES} /dev/zero >&2`, cwd);
  await entry.done;
  expect(entry.state).toBe("exited");
  expect(fs.statSync(entry.captureFiles!.stdout).size).toBe(BYTES);
  expect(fs.statSync(entry.captureFiles!.stderr).size).toBe(BYTES);
});
