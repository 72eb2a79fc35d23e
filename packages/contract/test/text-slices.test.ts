import { Writable } from "node:stream";
import { TEXT_SLICE_UNITS, textSlices, writeSlices } from "../src";

/** An output that takes one write at a time, releasing it only when `next()` is called. */
function slowOutput() {
  const taken: string[] = [];
  const queued: number[] = [];
  let release: (() => void) | undefined;
  const out = new Writable({
    highWaterMark: 1024,
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      taken.push(chunk);
      release = callback;
    },
  });
  const write = out.write.bind(out);
  out.write = ((chunk: string) => {
    const ok = write(chunk);
    queued.push(out.writableLength);
    return ok;
  }) as typeof out.write;
  const next = () => {
    const done = release;
    release = undefined;
    done?.();
  };
  return { out, taken, queued, next };
}

test("a large text is written slice by slice, each once the output took the one before", async () => {
  const text = `${"é".repeat(TEXT_SLICE_UNITS - 1)}😀${"x".repeat(2 * TEXT_SLICE_UNITS)}`;
  const { out, taken, queued, next } = slowOutput();
  let finished = false;
  const writing = writeSlices(out, text).then(() => (finished = true));
  while (!finished) {
    await new Promise((resolve) => setImmediate(resolve));
    next();
  }
  await writing;
  expect(taken.join("")).toBe(text);
  expect(taken).toEqual([...textSlices(text)]);
  // Never more than one slice waiting in the output at once.
  expect(Math.max(...queued)).toBeLessThanOrEqual(TEXT_SLICE_UNITS);
});

test("an output that breaks or closes midway ends the writing (no hang)", async () => {
  const text = "y".repeat(3 * TEXT_SLICE_UNITS);
  const broken = slowOutput();
  broken.out.on("error", () => undefined);
  const writing = writeSlices(broken.out, text);
  broken.out.destroy(new Error("EPIPE"));
  await writing;
  expect(broken.taken).toHaveLength(1);

  const closed = slowOutput();
  const ended = writeSlices(closed.out, text);
  closed.out.destroy();
  await ended;
  expect(closed.taken).toHaveLength(1);
});
