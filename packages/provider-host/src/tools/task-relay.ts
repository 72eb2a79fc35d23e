/**
 * The Tasks extension through the gateway (SEP-2663, 2026-07-28 era): a task
 * a mounted server created for a call is the gateway's task, for the caller
 * that made the call. A client that declares the extension on its call gets
 * the server's `CreateTaskResult` under a task id of the gateway's own, and
 * follows it with `tasks/get`, `tasks/update` and `tasks/cancel`, which go
 * to that server with its own id; the answers come back as the server sent
 * them, under the gateway's id. A client that does not declare it never gets
 * a task (the call runs to its end, or the server refuses it, -32021), and
 * its task requests are refused -32021 as the extension requires.
 *
 * The gateway keeps nothing per task: its id is the server's name and the
 * server's task id, sealed (HMAC-SHA256, the SDK's request-state codec) and
 * bound to the caller its credentials name, so any instance of the host (a
 * stateless one too) resolves it, and no other caller can use it; a task id
 * that does not open is -32602, as an unknown one is.
 */
import { randomBytes } from "node:crypto";
import {
  EXTENSIONS,
  isRecord,
  type CreatedTask,
  type GatewayCatalog,
  type JsonObject,
  type TaskMethod,
} from "@indus/contract";
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  createRequestStateCodec,
} from "@modelcontextprotocol/server";
import type {
  RequestStateCodec,
  Server,
  ServerCapabilities,
  ServerContext,
  StandardSchemaV1,
} from "@modelcontextprotocol/server";
import { downstreamRpcError } from "../rpc-errors";
import { handleStrictly } from "../strict-handlers";

/** How long a gateway task id opens: a task the server keeps longer is announced with this much `ttlMs`. */
const ID_LIFETIME_MS = 24 * 60 * 60 * 1000;

type TaskParams = Record<string, unknown> & { readonly taskId: string };

/** A task request's params: the task id (the gateway's), bounded; the rest goes to the server as sent. */
const TASK_PARAMS: StandardSchemaV1<TaskParams> = {
  "~standard": {
    version: 1,
    vendor: "indus",
    validate: (value) => {
      const taskId = isRecord(value) ? value["taskId"] : undefined;
      if (typeof taskId === "string" && taskId.length > 0 && taskId.length <= 4096)
        return { value: value as TaskParams };
      return {
        issues: [{ message: "params.taskId must be a task id (a string of 1 to 4096 characters)", path: ["taskId"] }],
      };
    },
  },
};

interface Sealed {
  /** The mounted server holding the task. */
  readonly s: string;
  /** The server's own task id. */
  readonly t: string;
}

/** Whether this request declared the Tasks extension (2026-07-28 requests carry their capabilities). */
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  const extensions = isRecord(declared) ? declared["extensions"] : undefined;
  return isRecord(extensions) && extensions[EXTENSIONS.tasks] !== undefined;
}

/** Whether `catalog` can follow its servers' tasks (the host then declares and serves the extension). */
export function relaysTasks(catalog: GatewayCatalog | undefined): boolean {
  return catalog?.taskRequest !== undefined;
}

/**
 * `capabilities` declaring the Tasks extension, in a 2026-07-28 handshake only
 * (a 2025-era client is never told of it), for a host that relays tasks: from
 * its first answer, though no mount may have connected yet (serve-before-boot)
 * and none may offer tasks. The extension lets a server answer a declaring
 * call with a plain result, which is what a call no mount runs as a task gets;
 * a client that discovers once learns of it only here.
 */
export function withTasksOffered(capabilities: ServerCapabilities, era: "legacy" | "modern"): ServerCapabilities {
  if (era === "legacy") return capabilities;
  return { ...capabilities, extensions: { ...capabilities.extensions, [EXTENSIONS.tasks]: {} } };
}

/** Who a request's credentials name (as the gateway tells callers apart); empty when none do. */
function callerKey(ctx: ServerContext): string {
  const auth = ctx.http?.authInfo;
  if (auth === undefined) return "";
  const subject = auth.extra?.["subject"];
  return JSON.stringify([auth.clientId || null, typeof subject === "string" ? subject : null]);
}

export class TaskRelay {
  private readonly codec: RequestStateCodec<Sealed>;

  /** `key`: the sealing secret (at least 32 bytes), shared by replicas that serve one client; default a random one. */
  constructor(key: Uint8Array | string = randomBytes(32)) {
    this.codec = createRequestStateCodec<Sealed>({
      key,
      ttlSeconds: ID_LIFETIME_MS / 1000,
      bind: (ctx) => callerKey(ctx),
    });
  }

  /** The `CreateTaskResult` for the caller: the server's, under the gateway's task id. */
  async created(task: CreatedTask, ctx: ServerContext): Promise<Record<string, unknown>> {
    const own = task.wire["taskId"];
    if (typeof own !== "string")
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `server "${task.server}" created a task without a taskId`,
      );
    const taskId = await this.codec.mint({ s: task.server, t: own }, ctx);
    const { content: _content, ...created } = withoutServerInfo(task.wire);
    return { ...created, resultType: "task", taskId, ttlMs: boundedTtl(task.wire["ttlMs"]) };
  }

  /** Serves `tasks/get`, `tasks/update` and `tasks/cancel` on `server` for `catalog`'s servers. */
  register(server: Server, catalog: GatewayCatalog): void {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"] as const) {
      handleStrictly(server, method, TASK_PARAMS, (params, ctx) => this.relay(catalog, method, params, ctx));
    }
  }

  private async relay(
    catalog: GatewayCatalog,
    method: TaskMethod,
    params: TaskParams,
    ctx: ServerContext,
  ): Promise<Record<string, unknown>> {
    if (!declaresTasks(ctx)) {
      throw new MissingRequiredClientCapabilityError({
        requiredCapabilities: { extensions: { [EXTENSIONS.tasks]: {} } },
      });
    }
    const { s: server, t: own } = await this.open(params.taskId, ctx);
    const { _meta: _own, ...rest } = params;
    // The SDK lifts `inputResponses` out of every request's params (SEP-2322): it goes on as the client sent it.
    const inputResponses = ctx.mcpReq.inputResponses;
    const sent: JsonObject = {
      ...(rest as JsonObject),
      taskId: own,
      ...(method === "tasks/update" &&
        inputResponses !== undefined && { inputResponses: inputResponses as JsonObject }),
    };
    let answer: JsonObject;
    try {
      answer = await catalog.taskRequest!(server, method, sent, { signal: ctx.mcpReq.signal });
    } catch (error) {
      throw asRpcError(error);
    }
    const result = withoutServerInfo(answer);
    return result["taskId"] === own ? { ...result, taskId: params.taskId } : result;
  }

  private async open(taskId: string, ctx: ServerContext): Promise<Sealed> {
    const sealed = await this.codec.verify(taskId, ctx).catch(() => undefined);
    if (sealed === undefined || typeof sealed.s !== "string" || typeof sealed.t !== "string") {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Failed to retrieve task: no task ${taskId.slice(0, 200)}`,
      );
    }
    return sealed;
  }
}

/** `ttlMs` as the gateway can honour it: no longer than its task id opens. */
function boundedTtl(ttlMs: unknown): number {
  return typeof ttlMs === "number" && Number.isInteger(ttlMs) && ttlMs > 0
    ? Math.min(ttlMs, ID_LIFETIME_MS)
    : ID_LIFETIME_MS;
}

/** `result` without the server's own identity in `_meta` (the SDK adds the gateway's); the rest of `_meta` kept. */
function withoutServerInfo(result: JsonObject): JsonObject {
  const meta = result["_meta"];
  if (!isRecord(meta) || !(SERVER_INFO_META_KEY in meta)) return result;
  const { [SERVER_INFO_META_KEY]: _server, ...kept } = meta;
  const { _meta: _dropped, ...rest } = result;
  return Object.keys(kept).length === 0 ? rest : { ...rest, _meta: kept };
}

/** A mounted server's JSON-RPC error as that error; any other failure -32603 naming it. */
function asRpcError(error: unknown): ProtocolError {
  const downstream = downstreamRpcError(error);
  const message = error instanceof Error ? error.message : String(error);
  return downstream === undefined
    ? new ProtocolError(ProtocolErrorCode.InternalError, message)
    : new ProtocolError(downstream.code, message, downstream.data);
}
