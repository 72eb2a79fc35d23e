/**
 * The stdio host's side of raw calls (see `docs/decisions/raw-call-forwarding.md`):
 * from the one `JSON.parse` the wire already does, a plain `tools/call` of a
 * republished tool from a client that can be asked nothing (a 2025-era one
 * that declared no sampling, elicitation, roots or tasks; a 2026-07-28 one
 * whose envelope declares no capabilities and asks for no logs) is handed to
 * the box raw, past the SDK `Server`; a cancellation naming it is passed on.
 * A plain text result goes back as the server sent it under the client's id
 * (in the 2026-07-28 era with the `resultType` and `serverInfo` the SDK adds);
 * any other answer (a JSON-RPC error, a fault, a result of another shape) is
 * replayed through the SDK `Server` as the call's answer, so the client gets
 * exactly what the normal path gives. Everything not taken here takes the
 * normal path.
 */
import {
  isPlainTextBlock,
  isRecord,
  ownKeyCount,
  type JsonObject,
  type RawAnswer,
  type RawForward,
  type ToolBox,
} from "@indus/contract";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from "@modelcontextprotocol/server";
import { isSpecType, parseJSONRPCMessage, type JSONRPCMessage } from "@modelcontextprotocol/server";
import type { HostInstance } from "../host-instance";
import { findDescriptor } from "../tools/descriptor-index";
import { rejectionOutcome } from "../tools/call-run";
import type { PreAnswer } from "../tools/tool-call";

type Id = string | number;
type Pinned = { readonly instance: HostInstance; readonly era: "legacy" | "modern" };

/** A raw call under way: its request (to replay) and what it was handed to. */
interface Running {
  readonly forward: RawForward;
  readonly request: Record<string, unknown>;
  readonly pinned: Pinned;
  readonly name: string;
}

/** What the host tells the raw calls about its connection. */
export interface RawCallHost {
  readonly box: ToolBox;
  /** The instance pinned to the client and its era, while it serves; undefined before. */
  pinned(): Pinned | undefined;
  /** Who the host says it is (the `serverInfo` a 2026-07-28 result carries). */
  readonly serverInfo: JsonObject;
  /** True once the box is ready (listings and calls no longer wait). */
  boxReady(): boolean;
  /** Writes a response to the client. */
  send(message: JSONRPCMessage): void;
  /** Hands a request to the SDK `Server` as if it had just been read. */
  replay(request: unknown): void;
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const CALL_KEYS = new Set(["name", "arguments", "_meta"]);
const RESULT_KEYS = new Set(["content", "isError"]);
const MODERN_REVISION = "2026-07-28";
const ASKING_CAPABILITIES = ["sampling", "elicitation", "roots", "tasks"];

export class RawCalls {
  private readonly running = new Map<Id, Running>();
  private envelope: JsonObject | undefined;

  constructor(private readonly host: RawCallHost) {}

  /** True when `value` (a parsed line) was handled here; false: the normal path takes it. */
  take(value: unknown): boolean {
    if (!isRecord(value)) return false;
    if (value["method"] === "notifications/cancelled") return this.cancelled(value);
    if (value["method"] !== "tools/call") return false;
    const pinned = this.host.pinned();
    if (pinned === undefined || !this.host.boxReady() || !plainCall(value)) return false;
    const { instance, era } = pinned;
    const id = value["id"] as Id;
    const params = value["params"] as { name: string; arguments?: JsonObject; _meta?: unknown };
    if (!(era === "legacy" ? askableNothing(instance, params._meta) : plainEnvelope(params._meta))) return false;
    if (this.running.has(id) || findDescriptor(this.host.box, params.name)?.wire === undefined) return false;
    // A 2025-era client takes the calls' logs at its session's level; this 2026-07-28 one asked for none.
    const logLevel = era === "legacy" ? instance.sessionLogLevel() : undefined;
    const forward = this.host.box.runner.forwardRaw?.({
      name: params.name,
      arguments: params.arguments ?? {},
      ...(logLevel !== undefined && { logLevel }),
      answer: (answer) => this.answered(id, value, pinned, answer),
    });
    if (forward === undefined) return false;
    this.running.set(id, { forward, request: value, pinned, name: params.name });
    return true;
  }

  /** The client left: each raw call is cancelled at its server, and no answer follows. */
  cancelAll(reason: string): void {
    const running = [...this.running.values()];
    this.running.clear();
    for (const { forward } of running) forward.cancel(reason);
  }

  /**
   * The host is shutting down: each raw call is cancelled at its server and
   * answered as the normal path answers an interrupted call. True when there was one.
   */
  interruptAll(reason: string): boolean {
    const running = [...this.running];
    this.running.clear();
    for (const [id, { forward, request, pinned, name }] of running) {
      forward.cancel(reason);
      pinned.instance.preAnswered.set(id, { interrupted: name });
      this.host.replay(request);
    }
    return running.length > 0;
  }

  /** A cancellation naming a raw call, taken only when the SDK would act on it (anything else it handles itself). */
  private cancelled(notification: Record<string, unknown>): boolean {
    const params = notification["params"];
    const id = isRecord(params) ? (params["requestId"] as Id) : undefined;
    const running = id === undefined ? undefined : this.running.get(id);
    if (running === undefined || !takenBySdk(notification)) return false;
    this.running.delete(id!);
    const reason = (params as Record<string, unknown>)["reason"];
    running.forward.cancel(typeof reason === "string" ? reason : "cancelled by the client");
    return true;
  }

  private answered(id: Id, request: Record<string, unknown>, { instance, era }: Pinned, answer: RawAnswer): void {
    if (!this.running.delete(id)) return;
    if (answer.kind === "result" && plainResult(answer.result)) {
      // Object.assign, not a spread: V8 builds a spread of an object given more keys on a slow path.
      const result = era === "legacy" ? answer.result : Object.assign({}, answer.result, this.modernEnvelope);
      this.host.send({ jsonrpc: "2.0", id, result });
      return;
    }
    instance.preAnswered.set(id, preAnswer((request["params"] as { name: string }).name, answer));
    this.host.replay(request);
  }

  /** What the SDK's 2026-07-28 codec adds to a complete result: the kind, and who answered. */
  private get modernEnvelope(): JsonObject {
    this.envelope ??= { resultType: "complete", _meta: { [SERVER_INFO_META_KEY]: this.host.serverInfo } };
    return this.envelope;
  }
}

/** The answer as the SDK `Server` is to give it; a fault no layer made an outcome of is answered as a runner's rejection is. */
function preAnswer(name: string, answer: RawAnswer): PreAnswer {
  if (answer.kind === "result") return { result: answer.result };
  if (answer.kind === "outcome") return { outcome: answer.outcome };
  return { outcome: rejectionOutcome({ id: "raw", name }, answer.error) };
}

/**
 * A cancellation the SDK acts on: a JSON-RPC notification its message schema
 * parses, of the cancellation's schema. A malformed one (a `reason` that is
 * no string, an id, an unknown top-level key) it refuses or drops, and the
 * call it names goes on: so does a raw call.
 */
function takenBySdk(notification: Record<string, unknown>): boolean {
  if (Object.hasOwn(notification, "id")) return false;
  try {
    parseJSONRPCMessage(notification);
  } catch {
    return false;
  }
  return isSpecType.CancelledNotification(notification);
}

/** A request of exactly `tools/call`'s plain form: a name, at most object arguments and `_meta` (no task). */
function plainCall(value: Record<string, unknown>): boolean {
  if (!onlyKeys(value, REQUEST_KEYS)) return false;
  const id = value["id"];
  if (value["jsonrpc"] !== "2.0" || (typeof id !== "string" && !Number.isSafeInteger(id))) return false;
  const params = value["params"];
  if (!isRecord(params) || typeof params["name"] !== "string") return false;
  if (!onlyKeys(params, CALL_KEYS)) return false;
  return params["arguments"] === undefined || isRecord(params["arguments"]);
}

/** True when every own key of `record` is one of `keys` (asked of every call: no array of its keys is made). */
function onlyKeys(record: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  for (const key in record) if (Object.hasOwn(record, key) && !keys.has(key)) return false;
  return true;
}

/** A 2025-era client that can be asked nothing: the server's questions during a call would be its call's. */
function askableNothing(instance: HostInstance, meta: unknown): boolean {
  const capabilities = instance.server.getClientCapabilities();
  if (meta !== undefined || capabilities === undefined) return false;
  for (const name of ASKING_CAPABILITIES) if ((capabilities as JsonObject)[name] !== undefined) return false;
  return true;
}

/**
 * A 2026-07-28 envelope of this revision that declares no capabilities, asks
 * for no logs and names its client plainly: nothing in it changes the call
 * (anything else, the SDK checks and the normal path reads).
 */
function plainEnvelope(meta: unknown): boolean {
  if (!isRecord(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return false;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isRecord(capabilities) || ownKeyCount(capabilities) > 0) return false;
  for (const key in meta) {
    if (!Object.hasOwn(meta, key) || key === PROTOCOL_VERSION_META_KEY || key === CLIENT_CAPABILITIES_META_KEY)
      continue;
    if (key !== CLIENT_INFO_META_KEY || !plainImplementation(meta[key])) return false;
  }
  return true;
}

function plainImplementation(value: unknown): boolean {
  if (!isRecord(value) || typeof value["name"] !== "string" || typeof value["version"] !== "string") return false;
  return ownKeyCount(value) === 2;
}

/** A result the SDK `Server` would pass on as it is: text blocks and `isError`, nothing else. */
function plainResult(result: JsonObject): boolean {
  if (!onlyKeys(result, RESULT_KEYS)) return false;
  const content = result["content"];
  const isError = result["isError"];
  if (!Array.isArray(content) || (isError !== undefined && typeof isError !== "boolean")) return false;
  return content.every(isPlainTextBlock);
}
