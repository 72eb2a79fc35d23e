/**
 * The stdio host transport writes a response that follows a progress
 * notification a moment later, so an SDK client reads them apart: the SDK's
 * client drops progress it reads in the same chunk as the result
 * (typescript-sdk#2580). The streams are in-memory: what is under test is
 * when the transport writes, not the process around it. The clock is Jest's:
 * a test that read the real one failed when the machine paused the worker
 * for 10 ms between two sends.
 */
import { PassThrough, Writable } from "node:stream";
import { StdioHostTransport } from "@indus/provider-host";
import { REAL_EVENT_LOOP } from "@indus/testkit";

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: [...REAL_EVENT_LOOP] });
});
afterEach(() => {
  jest.useRealTimers();
});

/** The transport's hold after progress (PROGRESS_GAP_MS in src/stdio-transport.ts). */
const GAP_MS = 10;

function recordingTransport() {
  const writes: { at: number; line: string }[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push({ at: performance.now(), line: String(chunk).trim() });
      done();
    },
  });
  const transport = new StdioHostTransport(new PassThrough(), stdout);
  return { transport, writes, kinds: () => writes.map(({ line }) => kindOf(JSON.parse(line) as object)) };
}

function kindOf(message: object): string {
  if ("method" in message) return String(message.method);
  return "id" in message ? `response ${String(message.id)}` : "?";
}

const progress = (step: number) => ({
  jsonrpc: "2.0" as const,
  method: "notifications/progress",
  params: { progressToken: 1, progress: step, total: 3 },
});
const result = (id: number) => ({ jsonrpc: "2.0" as const, id, result: { content: [] } });

it("holds a response that follows progress, and what comes after it, keeping the order", async () => {
  const { transport, writes, kinds } = recordingTransport();
  await transport.start();
  const sent = [1, 2, 3].map((step) => transport.send(progress(step)));
  sent.push(
    transport.send(result(1)),
    transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "after" } }),
  );
  expect(kinds()).toEqual(["notifications/progress", "notifications/progress", "notifications/progress"]);
  await jest.advanceTimersByTimeAsync(GAP_MS - 1);
  expect(kinds()).toHaveLength(3);
  await jest.advanceTimersByTimeAsync(1);
  await Promise.all(sent);
  expect(kinds()).toEqual([
    "notifications/progress",
    "notifications/progress",
    "notifications/progress",
    "response 1",
    "notifications/message",
  ]);
  expect(writes[3]!.at - writes[2]!.at).toBe(GAP_MS);
  await transport.close();
});

it("writes a response at once when no progress came just before it", async () => {
  const { transport, kinds } = recordingTransport();
  await transport.start();
  void transport.send(result(7));
  expect(kinds()).toEqual(["response 7"]);
  void transport.send(progress(1));
  await jest.advanceTimersByTimeAsync(GAP_MS);
  void transport.send(result(8));
  expect(kinds()).toEqual(["response 7", "notifications/progress", "response 8"]);
  await transport.close();
});

it("a close releases whatever is held", async () => {
  const { transport } = recordingTransport();
  await transport.start();
  void transport.send(progress(1));
  const held = transport.send(result(2));
  await transport.close();
  await expect(held).resolves.toBeUndefined();
});
