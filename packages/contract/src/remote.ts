/**
 * The handles the client bridge passes around: one remote tool, one call's
 * raw result, and point-in-time health of an endpoint or a whole fleet.
 */
import type { EndpointPhase } from "./phase";
import type { ProtocolFault } from "./fault";
import type { RemoteToolRef } from "./names";
import type { JsonObject, JsonValue } from "./json";
import type { ToolDescriptor } from "./tool-box";
import type { ProtocolEra } from "./protocol-era";
import type { ServerQuestions } from "./input-round";
import type { CreatedTask } from "./task";

/** A remote tool: where it lives and what the model is told about it. */
export interface RemoteTool {
  /** Server id and the server-side (unqualified) name calls are routed under. */
  readonly ref: RemoteToolRef;
  /** The model-facing descriptor: qualified name, normalized schema. */
  readonly descriptor: ToolDescriptor;
}

/** A call's raw result: MCP content blocks exactly as the server sent them. */
export interface RemoteCallResult {
  readonly content: readonly JsonValue[];
  readonly structuredContent?: { readonly [key: string]: JsonValue };
  readonly isError: boolean;
  /** The whole `CallToolResult` as the server sent it (`_meta` and all), for gateways to pass on unchanged. */
  readonly wire?: JsonObject;
  /** The server's questions, when the call asked for them (`InvokeOptions.inputRound`) and it asked some. */
  readonly questions?: ServerQuestions;
  /** The task the server created, when the call asked for it back (`InvokeOptions.tasks` `hand-back`). */
  readonly task?: CreatedTask;
}

/** Health of one endpoint at one moment. */
export interface EndpointStatus {
  readonly server: string;
  readonly phase: EndpointPhase;
  readonly toolCount: number;
  readonly fault?: ProtocolFault;
  /** The MCP era the connection runs in, once connected. */
  readonly era?: ProtocolEra;
}

/** Health of every endpoint, keyed by server id, in config order. */
export type FleetStatus = ReadonlyMap<string, EndpointStatus>;
