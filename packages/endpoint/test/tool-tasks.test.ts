import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createServerEndpoint,
  streamableHttpServer,
  type EndpointOptions,
  type McpServerEndpoint,
  type ProtocolFault,
} from "@indus/endpoint";
import type { ClientHostHooks, ToolProgress } from "@indus/contract";
import { REAL_EVENT_LOOP, waitFor } from "@indus/testkit";
import { FIXTURES, everythingStdio, fixture, npmServerEntry } from "./helpers/servers";
import { startEverythingHttp, type EverythingHttp } from "./helpers/everything-http";

// server-everything's `simulate-research-query` says `execution.taskSupport: "required"`: four
// stages of ~1 s each, and with `ambiguous: true` (and a client that can answer) it asks for a
// clarification through an elicitation it queues until the client calls `tasks/result`.
jest.setTimeout(60_000);

const TOOL = "simulate-research-query";
const TAP = path.join(__dirname, "fixtures", "wire-tap.mjs");

const open: McpServerEndpoint[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((endpoint) => endpoint.close()));
});

/** server-everything behind the wire tap, writing to `log`. */
async function everything(log: string, options: EndpointOptions = {}): Promise<McpServerEndpoint> {
  const config = everythingStdio("everything", {
    args: [TAP, log, process.execPath, npmServerEntry("server-everything"), "stdio"],
  });
  const endpoint = createServerEndpoint(config, undefined, options);
  await endpoint.open();
  return endpoint;
}

function text(result: { content: readonly unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
}

interface Tapped {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** A tap's log from a point on: tests sharing one tapped server each read only their own messages. */
interface TapView {
  readonly log: string;
  readonly from: number;
}

function lines(log: string): string[] {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n") : [];
}

/** The tap's log from now on. */
function mark(log: string): TapView {
  return { log, from: Math.max(0, lines(log).length - 1) };
}

/** The JSON-RPC messages the tap saw going one way (`>` to the server, `<` from it). */
function tapped(view: TapView, way: ">" | "<"): Tapped[] {
  return lines(view.log)
    .slice(view.from)
    .filter((line) => line.startsWith(`${way} `))
    .map((line) => JSON.parse(line.slice(2)) as Tapped);
}

function sent(view: TapView): Tapped[] {
  return tapped(view, ">");
}

/** The server's answer to the request `message`. */
function answerTo(view: TapView, message: Tapped | undefined): Tapped | undefined {
  return tapped(view, "<").find((m) => m.id === message?.id && m.method === undefined);
}

function tapLog(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "indus-tasks-")), "wire.log");
}

const clarifies: ClientHostHooks = {
  elicit: jest.fn(() => Promise.resolve({ action: "accept" as const, content: { interpretation: "snake" } })),
};

// One tapped server-everything for the tests that need no endpoint options of their own: each start costs
// a Node process loading the SDK, and each test reads only the wire messages sent since it began.
describe("one server-everything (host answers clarifications)", () => {
  const log = tapLog();
  let endpoint: McpServerEndpoint;
  beforeAll(async () => {
    endpoint = await everything(log, { host: clarifies });
  });
  afterAll(() => endpoint?.close());

  it("runs a task-required tool to completion behind invoke: the result as sent, statuses as progress", async () => {
    const progress: ToolProgress[] = [];
    // No listTools() first: invoke lists by itself to learn which tools need a task.
    const result = await endpoint.invoke(TOOL, { topic: "rust" }, { onProgress: (p) => progress.push(p) });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("# Research Report: rust");
    expect(result.wire?.["_meta"]).toMatchObject({
      "io.modelcontextprotocol/related-task": { taskId: expect.any(String) },
    });
    const messages = progress.map((p) => p.message);
    // The first from the CreateTaskResult; later ones as polls see the stages move (a poll may skip one).
    expect(messages[0]).toBe("Gathering sources...");
    expect(new Set(messages).size).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, index) => index + 1));
    // A plain tool of the same server is still a plain call.
    await expect(endpoint.invoke("echo", { message: "hi" })).resolves.toMatchObject({ isError: false });
  });

  it("answers the task's clarification through the host's elicit hook (input_required)", async () => {
    const result = await endpoint.invoke(TOOL, { topic: "python", ambiguous: true });
    expect(text(result)).toContain("# Research Report: python (snake)");
    expect(clarifies.elicit).toHaveBeenCalledTimes(1);
    const [server, params] = (clarifies.elicit as jest.Mock).mock.calls[0] as [string, { message?: string }];
    expect(server).toBe("everything");
    expect(params.message).toContain("multiple interpretations");
  });

  it("routes the clarification to the calling client (relayTo), not the endpoint's own host (stdio)", async () => {
    const calls = (clarifies.elicit as jest.Mock).mock.calls.length;
    const relayTo: ClientHostHooks = {
      elicit: () => Promise.resolve({ action: "accept", content: { interpretation: "historical" } }),
    };
    const result = await endpoint.invoke(TOOL, { topic: "bridges", ambiguous: true }, { relayTo });
    expect(text(result)).toContain("# Research Report: bridges (historical)");
    expect((clarifies.elicit as jest.Mock).mock.calls).toHaveLength(calls);
  });
});

it("routes the clarification to the calling client (relayTo), not the endpoint's own host (streamable-http)", async () => {
  const http: EverythingHttp = await startEverythingHttp("streamableHttp");
  try {
    const config = { ...streamableHttpServer("remote", http.url), protocol: "legacy" as const };
    const endpoint = createServerEndpoint(config, undefined, {
      host: { elicit: () => Promise.resolve({ action: "decline" }) },
    });
    open.push(endpoint);
    await endpoint.open();
    const relayTo: ClientHostHooks = {
      elicit: () => Promise.resolve({ action: "accept", content: { interpretation: "historical" } }),
    };
    const result = await endpoint.invoke(TOOL, { topic: "bridges", ambiguous: true }, { relayTo });
    expect(text(result)).toContain("# Research Report: bridges (historical)");
  } finally {
    await Promise.all(open.splice(0).map((endpoint) => endpoint.close()));
    await http.stop();
  }
});

it("a task that outlives the call's total bound is cancelled and fails as a timeout", async () => {
  const log = tapLog();
  const endpoint = await everything(log, { timeouts: { callTotalMs: 1_500 } });
  open.push(endpoint);
  await expect(endpoint.invoke(TOOL, { topic: "slow" })).rejects.toMatchObject({ kind: "timeout" });
  const wire: TapView = { log, from: 0 };
  const cancel = sent(wire).find((m) => m.method === "tasks/cancel");
  expect(answerTo(wire, cancel)?.result).toMatchObject({ status: "cancelled" });
});

describe("task edges (testkit/fixtures/task-server.mjs)", () => {
  async function taskServer(log: string, extra: string[] = [], listTimeoutMs?: number): Promise<McpServerEndpoint> {
    const config = fixture("tasks", "task-server.mjs", [], {
      args: [TAP, log, process.execPath, path.join(FIXTURES, "task-server.mjs"), ...extra],
      ...(listTimeoutMs === undefined ? {} : { listTimeoutMs }),
    });
    const endpoint = createServerEndpoint(config);
    await endpoint.open();
    return endpoint;
  }

  // One task server for the edges that need no start-up argument; each reads only its own wire messages.
  const log = tapLog();
  let shared: McpServerEndpoint;
  beforeAll(async () => {
    shared = await taskServer(log);
  });
  afterAll(() => shared?.close());

  it("a failed task's result is the call's result, isError and all", async () => {
    const result = await shared.invoke("fails", {});
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "it broke" }] });
  });

  it("a task the server cancels fails the call with a tool-error saying so", async () => {
    await expect(shared.invoke("dropped", {})).rejects.toMatchObject({
      kind: "tool-error",
      message: expect.stringMatching(/the server cancelled task \S+: shutting down/),
    });
  });

  it("a cancelled call sends tasks/cancel and fails as any cancelled call does", async () => {
    const wire = mark(log);
    const abort = new AbortController();
    // The caller cancels once the task reports it is working (it works until cancelled).
    const call = shared.invoke("forever", {}, { signal: abort.signal, onProgress: () => abort.abort() });
    const fault = (await call.catch((error: unknown) => error)) as ProtocolFault;
    expect(fault).toMatchObject({ name: "ProtocolFault", kind: "tool-error" });
    expect(fault.message).toMatch(/cancelled by the caller/);
    const messages = sent(wire);
    const created = messages.find((m) => m.method === "tools/call" && m.params?.["task"] !== undefined);
    expect(created?.params?.["task"]).toEqual({ ttl: expect.any(Number) });
    const taskId = (answerTo(wire, created)?.result?.["task"] as { taskId?: string } | undefined)?.taskId;
    const cancel = messages.find((m) => m.method === "tasks/cancel");
    expect(cancel?.params?.["taskId"]).toBe(taskId);
    expect(answerTo(wire, cancel)?.result).toMatchObject({ taskId, status: "cancelled" });
    // The connection is fine afterwards.
    await expect(shared.invoke("quick", {})).resolves.toMatchObject({ isError: false });
  });

  it("a pollInterval of 0 does not make the client spin: the next poll waits the 50 ms floor", async () => {
    // The test owns the client's clock: the task says pollInterval 0, and the
    // pause before the first tasks/get must still be 50 ms of that clock.
    jest.useFakeTimers({ doNotFake: [...REAL_EVENT_LOOP] });
    try {
      const start = jest.now();
      const reports: ToolProgress[] = [];
      const call = shared.invoke("pace", {}, { onProgress: (p) => reports.push(p) });
      // The task's first status is reported just as the client starts its pause.
      await waitFor("the task's first status", () => reports.length > 0);
      jest.advanceTimersToNextTimer();
      expect(jest.now() - start).toBe(50);
      jest.useRealTimers();
      await expect(call).resolves.toMatchObject({ content: [{ type: "text", text: "paced" }] });
    } finally {
      jest.useRealTimers();
    }
  });

  it("a tool listing that failed is not run again before every call of a task server", async () => {
    const own = tapLog();
    const endpoint = await taskServer(own, ["hang-list"], 300);
    open.push(endpoint);
    // Which tools are task-only only the listing says: the first call lists first, and that listing times out.
    await endpoint.invoke("quick", {}).catch(() => undefined);
    // One listing on the wire is the proof the second call did not list (and wait out its 300 ms) again.
    await endpoint.invoke("quick", {}).catch(() => undefined);
    expect(sent({ log: own, from: 0 }).filter((m) => m.method === "tools/list")).toHaveLength(1);
  });
});
