/**
 * The two behavioural interfaces the endpoint, the fleet, the mount and the
 * host pass between one another. Every failure is a `ProtocolFault`.
 */
import type { EndpointPhase } from "./phase";
import type { ServerConfig } from "./server-config";
import type { EndpointStatus, FleetStatus, RemoteCallResult, RemoteTool } from "./remote";
import type { ToolProgress } from "./tool-box";

export interface InvokeOptions {
  /** Aborting sends `notifications/cancelled` and fails the call. */
  readonly signal?: AbortSignal;
  /** Overrides the endpoint's call deadline for this call. */
  readonly timeoutMs?: number;
  /** Progress from the server; each one also resets the call deadline. */
  readonly onProgress?: (progress: ToolProgress) => void;
}

/** One live connection to one MCP server. */
export interface ServerEndpoint {
  readonly config: ServerConfig;
  readonly phase: EndpointPhase;
  /** Connect and handshake. Single-flight: concurrent callers share one attempt. */
  open(): Promise<void>;
  /** Every tool the server offers, qualified and normalized; cached. */
  listTools(): Promise<readonly RemoteTool[]>;
  /** Call a tool by its server-side (unqualified) name. */
  invoke(name: string, args: unknown, options?: InvokeOptions): Promise<RemoteCallResult>;
  status(): EndpointStatus;
  /** Always lands in `closed` (or leaves `faulted` as it is); never throws. */
  close(): Promise<void>;
}

/** A name-keyed set of endpoints with one lifecycle and per-server isolation. */
export interface ServerFleet {
  /** Re-run the last start; `not-connected` before any start. */
  spinUp(): Promise<void>;
  /** Close every endpoint in parallel; never throws. */
  tearDown(): Promise<void>;
  endpoint(server: string): ServerEndpoint | undefined;
  endpoints(): readonly ServerEndpoint[];
  status(): FleetStatus;
}
