#!/usr/bin/env node
/**
 * An MCP server offering the Tasks extension (`io.modelcontextprotocol/tasks`,
 * SEP-2663, stable with 2026-07-28), built on the official packages: the v2
 * SDK's low-level `Server` (`@modelcontextprotocol/server`), its stateless
 * HTTP handler and stdio entry, and the extension's wire vocabulary from
 * `@modelcontextprotocol/ext-tasks`. It carries every fixture the `tasks-*`
 * server scenarios of `@modelcontextprotocol/conformance` call, and passes them
 * directly; indus measures its gateway against it.
 *
 *   node examples/extensions/tasks-server.mjs --port 8080   Streamable HTTP on 127.0.0.1:8080/mcp
 *   node examples/extensions/tasks-server.mjs --stdio       stdio
 *
 * Other flags: `--poll-ms N` (the poll interval it suggests, default 250),
 * `--log FILE` (appends one line per task event: `created`, `cancel`,
 * `update`, ... with the task id, so a test can see what reached the server),
 * `--finish-file FILE` (a `slow_compute` running when FILE appears answers at
 * its next second as if all its seconds had passed: a test ends a long task on
 * its own word instead of outwaiting it).
 * With `--port 0` it prints `tasks-server listening at <url>` on stderr.
 *
 * Tools (a 2026-07-28 request declaring the extension gets a task where the
 * tool offers one; any other request runs the tool to the end, and a
 * task-only tool answers -32021):
 *
 *   greet {name}                    never a task: `Hello, <name>!`
 *   slow_compute {seconds, label}   a task (optional) that sleeps, reporting each second as its status message
 *   failing_job                     a task (required) ending with a tool error (`isError`) after ~1 s
 *   protocol_error_job              a task that fails with a JSON-RPC error (status `failed`)
 *   confirm_delete {filename}       a task that asks the user (elicitation) before it answers
 *   multi_input                     a task that asks two questions at once (answerable one at a time)
 *   test_tool_with_task             asks a name in-band first (input_required), then runs as a task greeting it
 *
 * Tasks live in this process's memory for their `ttlMs` (an hour) and are
 * shared by every connection, so any request holding a task id may follow it
 * (task ids are unguessable UUIDs).
 */
import { appendFileSync, existsSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { randomUUID } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  acceptedContent,
  createMcpHandler,
  inputRequired,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { TASKS_EXTENSION_ID_V2 as TASKS } from "@modelcontextprotocol/ext-tasks/core/v2";

const NAME = "tasks-server";
const argv = process.argv.slice(2);
const flag = (name) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const POLL_MS = Number(flag("--poll-ms") ?? 250);
const TTL_MS = 3_600_000;
const LOG = flag("--log");
const FINISH_FILE = flag("--finish-file");

/** One line per task event, for tests that must see what reached the server. */
function note(event, taskId, detail = "") {
  if (LOG !== undefined)
    appendFileSync(LOG, `${new Date().toISOString()} ${event} ${taskId}${detail ? ` ${detail}` : ""}\n`);
}

const text = (value) => ({ type: "text", text: value });
const nowIso = () => new Date().toISOString();

// ---- the task book: every task of this process ------------------------------

/** @type {Map<string, Task>} */
const tasks = new Map();

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

class Task {
  constructor() {
    this.taskId = randomUUID();
    this.status = "working";
    this.statusMessage = undefined;
    this.createdAt = nowIso();
    this.lastUpdatedAt = this.createdAt;
    this.result = undefined;
    this.error = undefined;
    /** Questions still waiting for an answer, by key. */
    this.pending = new Map();
    this.abort = new AbortController();
    this.expiry = setTimeout(() => tasks.delete(this.taskId), TTL_MS);
    this.expiry.unref();
  }

  /** The task as `tasks/get` answers it (DetailedTask). */
  detailed() {
    return {
      ...this.envelope(),
      ...(this.status === "input_required" && { inputRequests: this.inputRequests() }),
      ...(this.status === "completed" && { result: this.result }),
      ...(this.status === "failed" && { error: this.error }),
    };
  }

  /** The fields every Task carries (CreateTaskResult is these plus `resultType: "task"`). */
  envelope() {
    return {
      taskId: this.taskId,
      status: this.status,
      ...(this.statusMessage !== undefined && { statusMessage: this.statusMessage }),
      createdAt: this.createdAt,
      lastUpdatedAt: this.lastUpdatedAt,
      ttlMs: TTL_MS,
      pollIntervalMs: POLL_MS,
    };
  }

  inputRequests() {
    return Object.fromEntries([...this.pending].map(([key, question]) => [key, question.request]));
  }

  move(status, statusMessage) {
    if (TERMINAL.has(this.status)) return false;
    this.status = status;
    this.statusMessage = statusMessage;
    this.lastUpdatedAt = nowIso();
    return true;
  }

  /** Ask the client: resolves with the answers by key once every question has one. */
  ask(questions) {
    const answers = {};
    return new Promise((resolve, reject) => {
      const keys = Object.keys(questions);
      for (const key of keys) {
        this.pending.set(key, {
          request: questions[key],
          answer: (value) => {
            answers[key] = value;
            if (keys.every((k) => k in answers)) resolve(answers);
          },
        });
      }
      this.abort.signal.addEventListener("abort", () => reject(this.abort.signal.reason), { once: true });
      this.move("input_required", "waiting for your answer");
    });
  }

  /** `tasks/update`: answers for keys still pending are taken, others ignored. */
  answer(inputResponses) {
    for (const [key, value] of Object.entries(inputResponses)) {
      const question = this.pending.get(key);
      if (question === undefined) continue;
      this.pending.delete(key);
      question.answer(value);
    }
    if (this.status === "input_required" && this.pending.size === 0) this.move("working", "resumed");
  }

  cancel() {
    this.pending.clear();
    if (this.move("cancelled", "cancelled by the client")) this.abort.abort(new Error("cancelled"));
  }
}

/**
 * Start `job` as a task: it gets `{ task, signal }`, returns the tool result
 * (`completed`, an `isError` result included) or throws a `ProtocolError`
 * (`failed`, with that JSON-RPC error inlined).
 */
function startTask(tool, job) {
  const task = new Task();
  tasks.set(task.taskId, task);
  note("created", task.taskId, tool);
  job({ task, signal: task.abort.signal }).then(
    (result) => {
      if (task.move("completed")) task.result = result;
      note(task.status, task.taskId);
    },
    (error) => {
      if (task.abort.signal.aborted) return note("stopped", task.taskId);
      const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
      if (task.move("failed", error.message)) task.error = { code, message: error.message };
      note("failed", task.taskId, String(code));
    },
  );
  return { resultType: "task", ...task.envelope() };
}

/** Resolves after `ms`, or rejects when `signal` aborts. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

// ---- the tools ---------------------------------------------------------------

const object = (properties = {}, required = []) => ({ type: "object", properties, required });
const ask = (message, field, type = "string") =>
  inputRequired.elicit({ message, requestedSchema: object({ [field]: { type } }, [field]) });

async function compute({ seconds, label }, task, signal) {
  for (let second = 1; second <= seconds; second += 1) {
    await sleep(1_000, signal);
    if (task) task.move("working", `step ${second} of ${seconds}`);
    if (FINISH_FILE !== undefined && existsSync(FINISH_FILE)) break;
  }
  return { content: [text(`computed ${label ?? "job"} in ${seconds} s`)] };
}

async function confirmDelete({ filename }, task) {
  const key = `confirm-${randomUUID()}`;
  const answers = await task.ask({ [key]: ask(`Delete ${filename}?`, "confirm", "boolean") });
  const yes = acceptedContent(answers, key)?.confirm === true;
  return { content: [text(yes ? `deleted ${filename}` : `kept ${filename}`)] };
}

async function multiInput(_args, task) {
  const [first, second] = [`first-${randomUUID()}`, `second-${randomUUID()}`];
  const answers = await task.ask({
    [first]: ask("First name?", "name"),
    [second]: ask("Confirm?", "confirm", "boolean"),
  });
  return { content: [text(`got ${acceptedContent(answers, first)?.name ?? "?"} and ${second in answers}`)] };
}

/**
 * Each tool: its listing, whether it offers a task (`taskSupport`), and what
 * it does (`run(args, task, signal)`; `task` is undefined when it runs inline).
 */
const TOOLS = {
  greet: {
    description: "Greets by name (never a task)",
    inputSchema: object({ name: { type: "string" } }, ["name"]),
    run: ({ name }) => ({ content: [text(`Hello, ${name}!`)] }),
  },
  slow_compute: {
    description: "Sleeps `seconds` seconds, reporting each one, then answers (a task when the client takes one)",
    inputSchema: object({ seconds: { type: "number", minimum: 0 }, label: { type: "string" } }, ["seconds"]),
    taskSupport: "optional",
    run: compute,
  },
  failing_job: {
    description: "Ends with a tool error after about a second (task only)",
    inputSchema: object(),
    taskSupport: "required",
    run: async (_args, _task, signal) => {
      await sleep(1_000, signal);
      return { content: [text("the job failed")], isError: true };
    },
  },
  protocol_error_job: {
    description: "Fails with a JSON-RPC error (status failed)",
    inputSchema: object(),
    taskSupport: "optional",
    run: async (_args, _task, signal) => {
      await sleep(200, signal);
      throw new ProtocolError(ProtocolErrorCode.InternalError, "protocol_error_job broke on purpose");
    },
  },
  confirm_delete: {
    description: "Asks before deleting a file (task only: the question waits on the task)",
    inputSchema: object({ filename: { type: "string" } }, ["filename"]),
    taskSupport: "required",
    run: confirmDelete,
  },
  multi_input: {
    description: "Asks two questions at once (task only)",
    inputSchema: object(),
    taskSupport: "required",
    run: multiInput,
  },
  test_tool_with_task: {
    description: "Asks a name in-band (input_required), then greets it from a task",
    inputSchema: object(),
    taskSupport: "optional",
    run: async ({ name }, _task, signal) => {
      await sleep(200, signal);
      return { content: [text(`Hello, ${name} (from a task)`)] };
    },
  },
};

function listing() {
  return Object.entries(TOOLS).map(([name, tool]) => ({
    name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.taskSupport && { execution: { taskSupport: tool.taskSupport } }),
  }));
}

/** Whether this request declared the Tasks extension (2026-07-28 requests carry their capabilities). */
function declaresTasks(ctx) {
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return capabilities?.extensions?.[TASKS] !== undefined;
}

const missingTasks = () =>
  new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS]: {} } } });

function checkArguments(name, tool, args) {
  for (const field of tool.inputSchema.required) {
    if (args[field] === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${name}: argument "${field}" is required`);
    }
  }
}

async function callTool(request, ctx) {
  const { name } = request.params;
  const args = request.params.arguments ?? {};
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
  checkArguments(name, tool, args);
  const asTask = tool.taskSupport !== undefined && declaresTasks(ctx);
  if (tool.taskSupport === "required" && !asTask) throw missingTasks();
  if (name === "test_tool_with_task") {
    // Input gathered in-band first (SEP-2322); the task is only created on the final round.
    const userName = acceptedContent(ctx.mcpReq.inputResponses, "user_name")?.name;
    if (typeof userName !== "string") return inputRequired({ inputRequests: { user_name: ask("Your name?", "name") } });
    args.name = userName;
  }
  if (!asTask) return tool.run(args, undefined, ctx.mcpReq.signal);
  return startTask(name, ({ task, signal }) => Promise.resolve(tool.run(args, task, signal)));
}

// ---- tasks/get, tasks/update, tasks/cancel -----------------------------------

/** The task `params.taskId` names, for a request that declared the extension. */
function taskOf(params, ctx) {
  if (!declaresTasks(ctx)) throw missingTasks();
  const taskId = params?.taskId;
  const task = typeof taskId === "string" ? tasks.get(taskId) : undefined;
  if (task === undefined)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: no task ${taskId}`);
  return task;
}

const anyParams = { "~standard": { version: 1, vendor: NAME, validate: (value) => ({ value: value ?? {} }) } };

function registerTaskMethods(server) {
  server.setRequestHandler("tasks/get", { params: anyParams }, (params, ctx) => taskOf(params, ctx).detailed());
  server.setRequestHandler("tasks/update", { params: anyParams }, (params, ctx) => {
    const task = taskOf(params, ctx);
    // The SDK lifts `inputResponses` out of the params of every request onto `ctx.mcpReq` (SEP-2322).
    const responses = ctx.mcpReq.inputResponses ?? params.inputResponses;
    if (responses === null || typeof responses !== "object" || Array.isArray(responses)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "tasks/update: inputResponses must be an object");
    }
    note("update", task.taskId, Object.keys(responses).join(","));
    task.answer(responses);
    return {};
  });
  server.setRequestHandler("tasks/cancel", { params: anyParams }, (params, ctx) => {
    const task = taskOf(params, ctx);
    note("cancel", task.taskId);
    task.cancel();
    return {};
  });
}

/** One server instance (per HTTP request, per stdio connection); the tasks are the process's. */
function createServer({ era } = { era: "modern" }) {
  const modern = era === "modern";
  const server = new Server(
    { name: NAME, version: "1.0.0" },
    {
      capabilities: { tools: {}, ...(modern && { extensions: { [TASKS]: {} } }) },
      instructions: "Long tools run as tasks (io.modelcontextprotocol/tasks) for clients that declare the extension.",
    },
  );
  server.setRequestHandler("tools/list", () => ({ tools: listing() }));
  server.setRequestHandler("tools/call", callTool);
  if (modern) registerTaskMethods(server);
  return server;
}

if (argv.includes("--stdio")) {
  serveStdio(createServer, { legacy: "serve" });
} else {
  const handler = toNodeHandler(createMcpHandler(createServer, { legacy: "stateless" }));
  const http = createHttpServer((request, response) => {
    if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    void handler(request, response);
  });
  http.listen(Number(flag("--port") ?? 0), "127.0.0.1", () => {
    const { port } = http.address();
    process.stderr.write(`${NAME} listening at http://127.0.0.1:${port}/mcp\n`);
  });
}
