import { Agent, request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { sampleFrames } from "./support/frames";
import { INITIALIZE, MCP_HEADERS, rawRequest } from "./support/http";
import { STDIO_HOST, spawnHttpHost, spawnLineChild } from "./support/processes";
import type { LineChild } from "./support/processes";

// At least 10,000 random and mutated frames per transport, against hosts in
// child processes (so a crash or an unhandled rejection shows as an exit).
// FUZZ_SEED reproduces a run; FUZZ_FRAMES changes its size.
const FRAMES = Number(process.env.FUZZ_FRAMES ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_122);
/** Heap growth tolerated after the run, measured after a forced GC. */
const HEAP_SLACK_BYTES = 48 * 1024 * 1024;

jest.setTimeout(180_000);

describe(`fuzzing with ${FRAMES} frames per transport (seed ${SEED})`, () => {
  it("keeps the HTTP host up, bounded and serving", async () => {
    const host = await spawnHttpHost(["demo"], { PH_MAX_SESSIONS: "64" }, ["--expose-gc"]);
    const client = new Client({ name: "fuzz-witness", version: "1" });
    try {
      await client.connect(new StreamableHTTPClientTransport(host.url));
      const heapBefore = await heapUsed(client);

      const initialized = await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) });
      const fuzzSession = String(initialized.headers["mcp-session-id"]);
      const frames = sampleFrames(FRAMES, SEED);
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const statuses = new Map<number, number>();
      let next = 0;
      const worker = async () => {
        while (next < frames.length) {
          const index = next++;
          const status = await sendFrame(host.url, agent, frames[index]!, index, fuzzSession);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      agent.destroy();

      // Every frame got a deliberate answer: no 5xx but the session cap's 503.
      for (const status of statuses.keys()) expect([0, 200, 202, 400, 404, 405, 406, 413, 415, 503]).toContain(status);
      expect(statuses.get(0) ?? 0).toBeLessThan(FRAMES / 100);
      expect(host.child.exitCode).toBeNull();
      expect(host.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);

      const echoed = await client.callTool({ name: "echo", arguments: { message: "after the storm" } });
      expect(echoed.content).toEqual([{ type: "text", text: "Echo: after the storm" }]);
      const heapAfter = await heapUsed(client);
      expect(heapAfter - heapBefore).toBeLessThan(HEAP_SLACK_BYTES);
    } finally {
      await client.close().catch(() => {});
      expect(await host.stop()).toBe(0);
    }
  });

  it("keeps the stdio host up, bounded and serving", async () => {
    const line: LineChild = spawnLineChild(STDIO_HOST, [], ["--expose-gc"]);
    try {
      line.send({ ...INITIALIZE, id: "init" });
      await line.next((message) => message.id === "init");
      line.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const heapBefore = await stdioHeap(line, "heap-before");

      const frames = sampleFrames(FRAMES, SEED + 1);
      for (let start = 0; start < frames.length; start += 500) {
        const chunk = frames
          .slice(start, start + 500)
          .map((frame) => frame.replaceAll("\n", " "))
          .join("\n");
        if (!line.child.stdin.write(`${chunk}\n`)) {
          await new Promise((resolve) => line.child.stdin.once("drain", resolve));
        }
      }
      line.send({
        jsonrpc: "2.0",
        id: "witness",
        method: "tools/call",
        params: { name: "echo", arguments: { message: "still here" } },
      });
      const witness = await line.next(
        (message) => message.id === "witness",
        "the witness call's answer after the fuzzed frames",
      );
      expect(witness.result?.content).toEqual([{ type: "text", text: "Echo: still here" }]);
      expect(line.child.exitCode).toBeNull();
      expect(line.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);
      // Malformed lines were answered, not swallowed.
      expect(line.messages.some((message) => message?.id === null && message?.error?.code === -32700)).toBe(true);
      const heapAfter = await stdioHeap(line, "heap-after");
      expect(heapAfter - heapBefore).toBeLessThan(HEAP_SLACK_BYTES);

      line.child.stdin.end();
      expect(await line.exited()).toEqual({ code: 0, signal: null });
    } finally {
      if (line.child.exitCode === null) line.child.kill("SIGKILL");
    }
  });
});

/** Sends one frame with varied headers; resolves with the status (0: no answer in time). */
function sendFrame(url: URL, agent: Agent, frame: string, index: number, session: string): Promise<number> {
  const variant = index % 20;
  const headers: Record<string, string> = { ...MCP_HEADERS, "mcp-protocol-version": "2025-06-18" };
  // 19: no session at all, so initialize frames open sessions up to the cap.
  if (variant < 14) headers["mcp-session-id"] = session;
  else if (variant === 14) headers["mcp-session-id"] = `bogus-${index}`;
  else if (variant === 15) headers["content-type"] = "text/plain";
  else if (variant === 16) delete headers.accept;
  const method = variant === 17 ? "GET" : variant === 18 ? "PUT" : "POST";
  if (method === "GET") headers["mcp-session-id"] = `bogus-${index}`;
  return new Promise((resolve) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers, agent },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.setTimeout(10_000, () => {
      outgoing.destroy();
      resolve(0);
    });
    outgoing.on("error", () => resolve(0));
    outgoing.end(method === "GET" ? undefined : frame);
  });
}

async function heapUsed(client: Client): Promise<number> {
  const result = await client.callTool({ name: "memory", arguments: {} });
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text).heapUsed as number;
}

async function stdioHeap(line: LineChild, id: string): Promise<number> {
  line.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "memory", arguments: {} } });
  const answer = await line.next((message) => message.id === id, `the answer to ${id}`);
  return JSON.parse(answer.result!.content![0]!.text!).heapUsed as number;
}
