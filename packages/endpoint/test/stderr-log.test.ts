import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "@indus/testkit";
import { MAX_LOG_BYTES, StderrTail } from "../src/stdio/stderr-tail";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "indus-stderr-log-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The file's text once it ends with `last` (the log stream writes after `close()` returns). */
function written(file: string, last: string): Promise<string> {
  return waitFor(`${file} written`, () => {
    const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    return text.endsWith(last) && text;
  });
}

it("stamps each log line with the time, across chunks, in a file only the user can read", async () => {
  const file = path.join(dir, "logs", "s.log");
  const tail = new StderrTail(10, file);
  tail.push("first li");
  tail.push(Buffer.from("ne\nsecond line\nthi"));
  tail.push("rd\n");
  tail.close();
  const lines = (await written(file, " third\n")).trimEnd().split("\n");
  expect(lines).toHaveLength(3);
  for (const [i, text] of ["first line", "second line", "third"].entries())
    expect(lines[i]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z ${text}$`));
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(tail.tail()).toEqual(["first line", "second line", "third"]);
});

it("caps the log file and says so", async () => {
  const file = path.join(dir, "big.log");
  const tail = new StderrTail(10, file);
  const line = `${"x".repeat(1023)}\n`;
  for (let i = 0; i < (MAX_LOG_BYTES / 1024) * 1.5; i += 1) tail.push(line);
  tail.close();
  await written(file, `[log capped at ${MAX_LOG_BYTES} bytes]\n`);
  expect(fs.statSync(file).size).toBeLessThanOrEqual(MAX_LOG_BYTES + 100);
});
