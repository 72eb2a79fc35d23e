/**
 * A large message goes out in slices, each after the output has taken the one
 * before (so it is never held whole as bytes too), and what is sent meanwhile
 * follows it: lines never interleave, and a slice never splits a surrogate pair.
 */
import { PassThrough } from "node:stream";
import { StdioHostTransport } from "@indus/provider-host";

it("writes a 3 MB result whole and in order with the messages sent while it drains", async () => {
  // A small high-water mark: the output pushes back after every slice.
  const stdout = new PassThrough({ highWaterMark: 1024 });
  const transport = new StdioHostTransport(new PassThrough(), stdout);
  await transport.start();
  const text = "\u{1F600}x".repeat(1_000_000);
  const big = transport.send({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } });
  const after = transport.send({
    jsonrpc: "2.0",
    method: "notifications/message",
    params: { level: "info", data: "after" },
  });
  const chunks: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  await Promise.all([big, after]);
  const lines = Buffer.concat(chunks).toString("utf8").split("\n");
  expect(lines).toHaveLength(3);
  expect(lines[2]).toBe("");
  const first = JSON.parse(lines[0]!) as { id: number; result: { content: { text: string }[] } };
  expect(first.id).toBe(1);
  expect(first.result.content[0]!.text === text).toBe(true);
  expect(JSON.parse(lines[1]!)).toMatchObject({ method: "notifications/message", params: { data: "after" } });
  await transport.close();
});

it("writes a large message as exactly JSON.stringify's text, without ever building its whole line", async () => {
  const stdout = new PassThrough({ highWaterMark: 1024 });
  const transport = new StdioHostTransport(new PassThrough(), stdout);
  await transport.start();
  // Escapes at every slice boundary: quotes, backslashes, control characters, a lone surrogate, emoji.
  const text = `${'a"b\\c\n\u0001\ud800z\u{1F600}'.repeat(400_000)}end`;
  const message = {
    jsonrpc: "2.0" as const,
    id: 7,
    result: {
      content: [
        { type: "text", text, annotations: undefined },
        { type: "text", text: "small" },
      ],
      structuredContent: { list: [1, undefined, "two"], empty: {}, none: null },
      isError: false,
    },
  };
  const stringify = jest.spyOn(JSON, "stringify");
  const chunks: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  await transport.send(message);
  const longest = Math.max(...stringify.mock.results.map((r) => (typeof r.value === "string" ? r.value.length : 0)));
  stringify.mockRestore();
  const line = JSON.stringify(message);
  expect(Buffer.concat(chunks).toString("utf8")).toBe(`${line}\n`);
  // The longest text built is one slice's escapes, never the whole line (9.6 MB here).
  expect(longest).toBeLessThan(line.length / 2);
  await transport.close();
});

it("writes plain text as views of the string, escaping only the slices that need it", async () => {
  const stdout = new PassThrough({ highWaterMark: 1024 });
  const transport = new StdioHostTransport(new PassThrough(), stdout);
  await transport.start();
  // 3 MB of plain text with, far apart, one of each thing JSON escapes (the lone surrogate and the pair straddle a
  // slice boundary of 64 Ki units) and non-ASCII that needs none.
  const plain = "plain text é ü 漢 ".repeat(200_000);
  const text = `${plain.slice(0, 65_535)}\ud83d\ude00${plain.slice(0, 65_535)}\udc00${plain}"\\\u0001\u001f${plain}`;
  const message = { jsonrpc: "2.0" as const, id: 3, result: { content: [{ type: "text", text }] } };
  const stringify = jest.spyOn(JSON, "stringify");
  const chunks: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  await transport.send(message);
  const slicesEscaped = stringify.mock.calls.filter(([value]) => typeof value === "string" && value.length > 1000);
  stringify.mockRestore();
  expect(Buffer.concat(chunks).toString("utf8")).toBe(`${JSON.stringify(message)}\n`);
  // Of ~110 slices, only those holding a surrogate, a quote, a backslash or a control character were copied.
  expect(slicesEscaped.length).toBeGreaterThanOrEqual(3);
  expect(slicesEscaped.length).toBeLessThanOrEqual(5);
  await transport.close();
});
