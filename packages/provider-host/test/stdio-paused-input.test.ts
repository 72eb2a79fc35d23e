/**
 * A host handed a stdin that its owner paused (or unpiped from a buffer, as
 * `indusr mcp serve` does once booted) still reads it: in Node, a stream
 * paused explicitly does not flow again on a new 'data' listener alone.
 */
import { PassThrough } from "node:stream";
import { StdioHostTransport } from "@indus/provider-host";

it("reads a paused stdin, the lines sent before the host started first", async () => {
  const stdin = new PassThrough();
  stdin.pause();
  stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n`);
  const transport = new StdioHostTransport(stdin, new PassThrough());
  const received = new Promise((resolve) => (transport.onmessage = resolve));
  await transport.start();
  await expect(received).resolves.toEqual({ jsonrpc: "2.0", id: 1, method: "ping" });
  await transport.close();
});
