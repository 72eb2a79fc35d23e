/**
 * Many processes updating one state file at once lose nothing: each child
 * adds its own key with a read-modify-write, sync and async writers mixed.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleSource } from "./bundle";

jest.setTimeout(120_000);

const WRITERS = 10;
const ROUNDS = 5;

let bundle: string;
let dir: string;
beforeAll(async () => {
  bundle = await bundleSource("writers");
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "state-file-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const CHILD = `
const [bundle, file, who, rounds, mode] = process.argv.slice(1);
const { updateJsonState, updateJsonStateSync } = require(bundle);
const decode = (value) => (value && typeof value === "object" ? value : {});
(async () => {
  for (let i = 0; i < Number(rounds); i += 1) {
    const add = (state) => ({ ...state, [who + "-" + i]: true });
    if (mode === "sync") updateJsonStateSync(file, decode, add);
    else await updateJsonState(file, decode, add);
  }
})().catch((error) => { console.error(error); process.exit(1); });
`;

function runChild(file: string, who: string, mode: "sync" | "async"): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["-e", CHILD, bundle, file, who, String(ROUNDS), mode],
      { timeout: 100_000 },
      (error, _stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve()),
    );
  });
}

it(`keeps every entry of ${WRITERS} processes updating one file at once`, async () => {
  const file = path.join(dir, "nested", "state.json");
  await Promise.all(Array.from({ length: WRITERS }, (_, i) => runChild(file, `w${i}`, i % 2 === 0 ? "sync" : "async")));
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, boolean>;
  expect(Object.keys(state)).toHaveLength(WRITERS * ROUNDS);
  expect(fs.readdirSync(path.dirname(file))).toEqual(["state.json"]);
});
