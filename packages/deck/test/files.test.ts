import fs from "node:fs";
import path from "node:path";
import { MemoryReadState } from "@indus/deck";
import { READ_LIMITS } from "@indus/deck/internal";
import { deckAt, tempDir, write } from "./helpers";

// 1x1 transparent PNG
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

describe("read", () => {
  it("numbers lines, pages with offset/limit and says how to continue", async () => {
    const cwd = tempDir();
    write(cwd, { "f.txt": Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n" });
    const { call } = deckAt(cwd);
    const all = await call("read", { path: "f.txt" });
    expect(all.isError).toBe(false);
    expect(all.text.split("\n")[0]).toBe("     1\tline 1");
    expect(all.text.split("\n")).toHaveLength(10);
    const page = await call("read", { path: "f.txt", offset: 3, limit: 2 });
    expect(page.text).toBe("     3\tline 3\n     4\tline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to read more.]");
    expect((await call("read", { path: "f.txt", offset: 11 })).isError).toBe(true);
  });

  it("clips long lines and caps total output", async () => {
    const cwd = tempDir();
    write(cwd, { "long.txt": `${"x".repeat(5000)}\nshort\n`, "big.txt": `${"y".repeat(1500)}\n`.repeat(200) });
    const { call } = deckAt(cwd);
    const long = await call("read", { path: "long.txt" });
    expect(long.text).toContain("… [3000 more chars]");
    expect(long.text).toContain("     2\tshort");
    const big = await call("read", { path: "big.txt" });
    expect(big.text.length).toBeLessThanOrEqual(READ_LIMITS.maxOutputChars + 200);
    expect(big.text).toMatch(/Use offset=\d+ to read more/);
  });

  it("refuses binaries and directories, reports missing files, returns images as image content", async () => {
    const cwd = tempDir();
    write(cwd, { "bin.dat": Buffer.from([1, 2, 0, 3, 4]), "pic.png": PNG, "sub/x": "" });
    const { call } = deckAt(cwd);
    const bin = await call("read", { path: "bin.dat" });
    expect(bin.isError).toBe(true);
    expect(bin.text).toMatch(/binary file/);
    expect((await call("read", { path: "sub" })).text).toMatch(/is a directory/);
    expect((await call("read", { path: "missing.txt" })).text).toMatch(/does not exist/);
    expect((await call("read", { path: "sub/x" })).text).toMatch(/is empty/);
    const image = await call("read", { file_path: "pic.png" });
    expect(image.isError).toBe(false);
    expect(image.content[1]).toEqual({
      type: "json",
      value: { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
    });
  });
});

describe("write and edit: the read-before-edit gate", () => {
  it("creates new files (and parents) without a prior read", async () => {
    const cwd = tempDir();
    const { call } = deckAt(cwd);
    const out = await call("write", { path: "a/b/c.txt", content: "hello\n" });
    expect(out.isError).toBe(false);
    expect(out.text).toMatch(/^Created a\/b\/c.txt \(1 line/);
    expect(fs.readFileSync(path.join(cwd, "a/b/c.txt"), "utf8")).toBe("hello\n");
  });

  it("refuses to overwrite or edit a file not read this session", async () => {
    const cwd = tempDir();
    write(cwd, { "x.txt": "keep me\n" });
    const { call } = deckAt(cwd);
    const w = await call("write", { path: "x.txt", content: "clobber" });
    expect(w.isError).toBe(true);
    expect(w.text).toMatch(/has not been read this session/);
    const e = await call("edit", { path: "x.txt", old_string: "keep", new_string: "lose" });
    expect(e.isError).toBe(true);
    expect(fs.readFileSync(path.join(cwd, "x.txt"), "utf8")).toBe("keep me\n");
  });

  it("refuses when the file changed on disk since it was read", async () => {
    const cwd = tempDir();
    write(cwd, { "x.txt": "v1\n" });
    const { call } = deckAt(cwd);
    await call("read", { path: "x.txt" });
    fs.writeFileSync(path.join(cwd, "x.txt"), "v2 longer\n");
    const e = await call("edit", { path: "x.txt", old_string: "v2", new_string: "v3" });
    expect(e.isError).toBe(true);
    expect(e.text).toMatch(/changed on disk since it was last read/);
    await call("read", { path: "x.txt" });
    expect((await call("edit", { path: "x.txt", old_string: "v2", new_string: "v3" })).isError).toBe(false);
  });

  it("lets successive edits through after the tool's own writes, and shows a short diff", async () => {
    const cwd = tempDir();
    write(cwd, { "code.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    const { call } = deckAt(cwd);
    await call("read", { path: "code.ts" });
    const first = await call("edit", { path: "code.ts", old_string: "const b = 2;", new_string: "const b = 20;" });
    expect(first.isError).toBe(false);
    expect(first.text).toContain("-const b = 2;");
    expect(first.text).toContain("+const b = 20;");
    expect(first.text).toMatch(/@@ -1,3 \+1,3 @@/);
    const second = await call("write", { path: "code.ts", content: "replaced\n" });
    expect(second.isError).toBe(false);
    expect(second.text).toMatch(/^Overwrote code.ts/);
    expect(second.text).toContain("+replaced");
  });

  it("honours an injected read-state handle", async () => {
    const cwd = tempDir();
    write(cwd, { "x.txt": "data\n" });
    const readState = new MemoryReadState();
    const stat = fs.statSync(path.join(cwd, "x.txt"));
    readState.record(path.join(cwd, "x.txt"), { mtimeMs: stat.mtimeMs, size: stat.size });
    const { call } = deckAt(cwd, { framework: { readState } });
    expect((await call("edit", { path: "x.txt", old_string: "data", new_string: "DATA" })).isError).toBe(false);
    expect(readState.get(path.join(cwd, "x.txt"))?.size).toBe(5);
  });
});

describe("edit", () => {
  it("requires a unique match unless replace_all", async () => {
    const cwd = tempDir();
    write(cwd, { "d.txt": "foo bar foo baz foo\n" });
    const { call } = deckAt(cwd);
    await call("read", { path: "d.txt" });
    const dup = await call("edit", { path: "d.txt", old_string: "foo", new_string: "qux" });
    expect(dup.isError).toBe(true);
    expect(dup.text).toMatch(/occurs 3 times/);
    const all = await call("edit", { path: "d.txt", old_string: "foo", new_string: "qux", replace_all: true });
    expect(all.text).toMatch(/3 replacements/);
    expect(fs.readFileSync(path.join(cwd, "d.txt"), "utf8")).toBe("qux bar qux baz qux\n");
  });

  it("reports a missing old_string, identical strings, and $-patterns are literal", async () => {
    const cwd = tempDir();
    write(cwd, { "d.txt": "price: 10\n" });
    const { call } = deckAt(cwd);
    await call("read", { path: "d.txt" });
    expect((await call("edit", { path: "d.txt", old_string: "nope", new_string: "x" })).text).toMatch(/was not found/);
    expect((await call("edit", { path: "d.txt", old_string: "10", new_string: "10" })).text).toMatch(/identical/);
    await call("edit", { path: "d.txt", old_string: "10", new_string: "$& $1 $$" });
    expect(fs.readFileSync(path.join(cwd, "d.txt"), "utf8")).toBe("price: $& $1 $$\n");
  });

  it("matches LF old_string against a CRLF file and keeps CRLF", async () => {
    const cwd = tempDir();
    write(cwd, { "w.txt": "one\r\ntwo\r\nthree\r\n" });
    const { call } = deckAt(cwd);
    await call("read", { path: "w.txt" });
    expect((await call("edit", { path: "w.txt", old_string: "one\ntwo", new_string: "1\n2" })).isError).toBe(false);
    expect(fs.readFileSync(path.join(cwd, "w.txt"), "utf8")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("creates a missing file from an empty old_string", async () => {
    const cwd = tempDir();
    const { call } = deckAt(cwd);
    expect((await call("edit", { path: "n.txt", old_string: "", new_string: "new\n" })).text).toMatch(/Created/);
    expect((await call("edit", { path: "m.txt", old_string: "x", new_string: "y" })).text).toMatch(/does not exist/);
  });
});
