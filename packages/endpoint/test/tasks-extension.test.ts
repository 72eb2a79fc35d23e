import {
  createServerEndpoint,
  streamableHttpServer,
  type McpServerEndpoint,
  type ProtocolFault,
} from "@indus/endpoint";
import type { ClientHostHooks, TaskView, ToolProgress } from "@indus/contract";
import { exampleLog, exampleLogFile, exampleStdio, startExampleHttp, waitFor, type ExampleHttp } from "@indus/testkit";

// The Tasks extension (SEP-2663) against examples/extensions/tasks-server.mjs, in the 2026-07-28 era:
// a call the server answers with a task is followed to its result (drive), handed back (hand-back),
// or not offered one (off); questions go through the host hooks; an abort sends tasks/cancel.
jest.setTimeout(60_000);

const open: McpServerEndpoint[] = [];
let http: ExampleHttp | undefined;
afterEach(async () => {
  await Promise.all(open.splice(0).map((endpoint) => endpoint.close()));
  await http?.stop();
  http = undefined;
});

async function overStdio(args: readonly string[] = [], host?: ClientHostHooks): Promise<McpServerEndpoint> {
  const { command, args: argv } = exampleStdio("tasks-server", ["--poll-ms", "50", ...args]);
  const config = {
    transport: "stdio" as const,
    id: "tasks",
    command,
    args: argv,
    env: {},
    protocol: "2026-07-28" as const,
  };
  const endpoint = createServerEndpoint(config, undefined, host ? { host } : {});
  open.push(endpoint);
  await endpoint.open();
  return endpoint;
}

function text(result: { content: readonly unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
}

/** Resolves once the server's log has a line matching `pattern`. */
async function logged(file: string, pattern: RegExp): Promise<string> {
  return waitFor(`the server logged ${pattern}`, () => {
    const line = exampleLog(file).find((each) => pattern.test(each));
    if (line === undefined) throw new Error(`server log:\n${exampleLog(file).join("\n")}`);
    return line;
  });
}

it("follows a task to its result (stdio), its statuses as progress and task views", async () => {
  const endpoint = await overStdio();
  expect(endpoint.era).toBe("2026-07-28");
  const progress: ToolProgress[] = [];
  const views: TaskView[] = [];
  const result = await endpoint.invoke(
    "slow_compute",
    { seconds: 3, label: "report" },
    { onProgress: (p) => progress.push(p), onTask: (view) => views.push(view) },
  );
  expect(result.isError).toBe(false);
  expect(text(result)).toBe("computed report in 3 s");
  expect(views[0]).toMatchObject({ server: "tasks", status: "working" });
  // Polled every 250 ms, a step's message stands for a second: a loaded runner may miss one step, not both.
  expect(views.map((view) => view.statusMessage)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^step [12] of 3$/)]),
  );
  expect(views.at(-1)?.status).toBe("completed");
  expect(new Set(views.map((view) => view.taskId)).size).toBe(1);
  expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
});

it("asks the host what the task asks (elicitation) and answers it with tasks/update", async () => {
  const elicit = jest.fn(() => Promise.resolve({ action: "accept" as const, content: { confirm: true } }));
  const log = exampleLogFile();
  const endpoint = await overStdio(["--log", log], { elicit });
  const result = await endpoint.invoke("confirm_delete", { filename: "notes.txt" });
  expect(text(result)).toBe("deleted notes.txt");
  expect(elicit).toHaveBeenCalledTimes(1);
  const [server, params, , key] = elicit.mock.calls[0] as unknown as [string, { message: string }, unknown, string];
  expect(server).toBe("tasks");
  expect(params.message).toBe("Delete notes.txt?");
  expect(key).toMatch(/^confirm-/);
  await logged(log, new RegExp(`update \\S+ ${key}`));
});

it("sends tasks/cancel when the caller aborts, and fails the call as cancelled", async () => {
  const log = exampleLogFile();
  const endpoint = await overStdio(["--log", log]);
  const abort = new AbortController();
  const call = endpoint.invoke("slow_compute", { seconds: 60 }, { signal: abort.signal, onTask: () => abort.abort() });
  await expect(call).rejects.toMatchObject({ kind: "tool-error", message: expect.stringContaining("cancelled") });
  const created = await logged(log, /created \S+ slow_compute/);
  const taskId = created.split(" ")[2]!;
  await logged(log, new RegExp(`cancel ${taskId}`));
});

it("fails a task that failed with its JSON-RPC error, and a tool error stays a result", async () => {
  const endpoint = await overStdio();
  const failed = await endpoint.invoke("protocol_error_job", {}).catch((error: ProtocolFault) => error);
  expect(failed).toMatchObject({ kind: "tool-error", rpcCode: -32603 });
  expect((failed as ProtocolFault).message).toContain("protocol_error_job broke on purpose");
  const toolError = await endpoint.invoke("failing_job", {});
  expect(toolError).toMatchObject({ isError: true });
  expect(text(toolError)).toBe("the job failed");
});

it("hands a task back as created, and relays tasks/get and tasks/cancel to the server (HTTP)", async () => {
  http = await startExampleHttp("tasks-server", ["--poll-ms", "50"]);
  const endpoint = createServerEndpoint(streamableHttpServer("tasks", http.url, { protocol: "2026-07-28" }));
  open.push(endpoint);
  await endpoint.open();
  const result = await endpoint.invoke("slow_compute", { seconds: 60 }, { tasks: "hand-back" });
  expect(result.task).toMatchObject({ kind: "task", server: "tasks", wire: { status: "working" } });
  const taskId = result.task!.wire["taskId"] as string;
  expect(result.task!.wire).not.toHaveProperty("resultType");
  const got = await endpoint.taskRequest("tasks/get", { taskId });
  expect(got).toMatchObject({ taskId, status: expect.stringMatching(/working/) });
  const ack = await endpoint.taskRequest("tasks/cancel", { taskId });
  expect(ack).not.toHaveProperty("taskId");
  expect(ack).not.toHaveProperty("status");
  await expect(endpoint.taskRequest("tasks/get", { taskId })).resolves.toMatchObject({ status: "cancelled" });
  await expect(endpoint.taskRequest("tasks/get", { taskId: "no-such-task" })).rejects.toMatchObject({
    rpcCode: -32602,
  });
});

it("does not offer tasks when told off: the server runs the call, or refuses a task-only tool with -32021", async () => {
  const endpoint = await overStdio();
  const inline = await endpoint.invoke("slow_compute", { seconds: 0, label: "now" }, { tasks: "off" });
  expect(text(inline)).toBe("computed now in 0 s");
  await expect(endpoint.invoke("failing_job", {}, { tasks: "off" })).rejects.toMatchObject({ rpcCode: -32021 });
});
