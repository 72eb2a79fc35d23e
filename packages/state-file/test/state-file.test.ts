import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  readJsonStateSync,
  StateFileError,
  updateJsonState,
  updateJsonStateSync,
  updateStateFileSync,
  withFileLock,
} from "@indus/state-file";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "state-file-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const asRecord = (value: unknown): Record<string, number> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, number>) : {};

it("creates the file and its folders private to the user", () => {
  const file = path.join(dir, "a", "b", "state.json");
  updateJsonStateSync(file, asRecord, (state) => ({ ...state, one: 1 }));
  expect(readJsonStateSync(file, asRecord)).toEqual({ one: 1 });
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
});

it("keeps an existing file's mode and a symlink a symlink", () => {
  const real = path.join(dir, "real.json");
  fs.writeFileSync(real, "{}\n", { mode: 0o644 });
  fs.chmodSync(real, 0o644);
  const link = path.join(dir, "link.json");
  fs.symlinkSync(real, link);
  updateJsonStateSync(link, asRecord, (state) => ({ ...state, two: 2 }));
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  expect(readJsonStateSync(real, asRecord)).toEqual({ two: 2 });
  expect(fs.statSync(real).mode & 0o777).toBe(0o644);
});

it("reads a corrupt file as empty and leaves the file alone when the change returns nothing", () => {
  const file = path.join(dir, "state.json");
  fs.writeFileSync(file, "{ not json");
  const seen = updateJsonStateSync(file, asRecord, () => undefined);
  expect(seen).toEqual({});
  expect(fs.readFileSync(file, "utf8")).toBe("{ not json");
});

it("reads a file over maxBytes as absent, so a bloated hint file costs a fresh start", async () => {
  const file = path.join(dir, "state.json");
  fs.writeFileSync(file, JSON.stringify({ big: "x".repeat(5000) }));
  const next = await updateJsonState(file, asRecord, (state) => ({ ...state, small: 1 }), { maxBytes: 1000 });
  expect(next).toEqual({ small: 1 });
  expect(fs.statSync(file).size).toBeLessThan(100);
});

it("fails with a `locked` error, changing nothing, when another writer holds the lock too long", async () => {
  const file = path.join(dir, "state.json");
  fs.writeFileSync(file, "before");
  let caught: unknown;
  await withFileLock(file, () => {
    try {
      updateStateFileSync(file, () => ({ text: "after", result: undefined }), { waitMs: 200 });
    } catch (error) {
      caught = error;
    }
  });
  expect(StateFileError.isInstance(caught)).toBe(true);
  expect(caught).toMatchObject({ kind: "locked", file });
  expect(fs.readFileSync(file, "utf8")).toBe("before");
});

it("takes over a lock left by a crashed writer once it is stale", () => {
  const file = path.join(dir, "state.json");
  const lock = `${file}.lock`;
  fs.mkdirSync(lock);
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(lock, old, old);
  updateJsonStateSync(file, asRecord, () => ({ three: 3 }));
  expect(readJsonStateSync(file, asRecord)).toEqual({ three: 3 });
  expect(fs.existsSync(lock)).toBe(false);
});

it("fails with an `unwritable` error naming the file when its folder cannot be created", () => {
  const blocker = path.join(dir, "blocker");
  fs.writeFileSync(blocker, "a file, not a folder");
  const file = path.join(blocker, "state.json");
  expect(() => updateJsonStateSync(file, asRecord, () => ({}))).toThrow(
    expect.objectContaining({ kind: "unwritable", file }) as Error,
  );
});
