/**
 * Faults classified by the site where they happen, never by the SDK's error
 * types or message text, so the six-kind contract survives an SDK change:
 *
 * | site                                          | kind            |
 * |-----------------------------------------------|-----------------|
 * | invalid server id or config (at `open`)       | `protocol`      |
 * | spawning a stdio server, or its handshake     | `spawn-failed`  |
 * | connecting to an HTTP server, or its handshake| `transport`     |
 * | any request the server refuses for want of a  | `unauthorized`  |
 * |   sign-in (401, 403 insufficient_scope, OAuth)|                 |
 * | connect, list or call deadline                | `timeout`       |
 * | no handshake by the deadline after non-JSON-  | `protocol`      |
 * |   RPC lines on stdout                         |                 |
 * | `tools/list` (and catalog) failure            | `protocol`      |
 * | `tools/call` failure, or the caller's abort   | `tool-error`    |
 * | the server dies or the connection drops (the  | `transport`     |
 * |   endpoint's fault and its calls in flight)   |                 |
 * | an over-size message on stdout, HTTP body or  | `protocol`      |
 * |   SSE event (HTTP causes: see network-cause)  |                 |
 * | any operation on an endpoint not `ready`      | `not-connected` |
 */
import { isProtocolFault, protocolFault, type FaultDetails, type FaultKind, type ProtocolFault } from "@indus/contract";
import type { Transport } from "@modelcontextprotocol/client";
import { CallerAborted, DeadlineExceeded } from "../deadline";
import type { ExitInfo, PipeLoss } from "../stdio/process-stdio-options";
import { ProcessStdioTransport } from "../stdio/process-stdio-transport";
import { authFailure } from "../auth/http-auth";
import { describeStderr } from "../stdio/stderr-tail";
import { networkCause } from "./network-cause";
import { isResponseTooLarge } from "../http/response-cap";
import { serverErrorDetails } from "./server-error";

export type FaultSite = "connect" | "list" | "call";

/** What a stdio server left behind that helps explain a failure. */
export interface ServerEvidence {
  /** True when the server is a process we spawned. */
  readonly spawned: boolean;
  readonly exit?: ExitInfo | undefined;
  readonly garbage?: { readonly count: number; readonly first?: string | undefined } | undefined;
  /** The server closed its stdout or stopped reading stdin while running. */
  readonly pipeLoss?: PipeLoss | undefined;
  readonly stderr: readonly string[];
  /** What the user does to sign in (an `unauthorized` fault ends with it). */
  readonly signInHint?: string | undefined;
  /** The server signs in with the client_credentials grant: no user to ask, so no hint. */
  readonly machineGrant?: boolean | undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The network cause when there is one (refused, reset, TLS, ...), else the error's own text. */
function reason(error: unknown): string {
  const cause = networkCause(error);
  return cause ? `${errorText(error)}: ${cause.text}` : errorText(error);
}

function exitText(exit: ExitInfo): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
}

/**
 * Why the operating system refused to start the program, from the errno
 * fields of the spawn error (never its message text); undefined otherwise.
 */
function spawnError(error: unknown): string | undefined {
  // Structural, not `instanceof Error`: errors from Node internals may come from another realm.
  if (typeof error !== "object" || error === null) return undefined;
  const errno = error as NodeJS.ErrnoException & { path?: string };
  if (typeof errno.syscall !== "string" || !errno.syscall.startsWith("spawn")) return undefined;
  const program = JSON.stringify(errno.path ?? errno.syscall.slice("spawn ".length));
  switch (errno.code) {
    case "ENOENT":
      return `${program} was not found (is it installed and on PATH?)`;
    case "EACCES":
      return `${program} is not executable (EACCES)`;
    default:
      return `${program}: ${errno.code ?? "error"} ${errno.message}`;
  }
}

/** The structured fields of a fault about `server`: its id, exit code and stderr tail. */
function detailsOf(server: string, exit: ExitInfo | undefined, stderr: readonly string[]): FaultDetails {
  return {
    server,
    ...(typeof exit?.code === "number" ? { exitCode: exit.code } : {}),
    ...(stderr.length > 0 ? { stderrTail: [...stderr] } : {}),
  };
}

/** The fault for `error` raised at `site` while talking to `server`. */
export function faultAt(site: FaultSite, server: string, error: unknown, evidence: ServerEvidence): ProtocolFault {
  if (isProtocolFault(error)) return error;
  const details = { ...detailsOf(server, evidence.exit, evidence.stderr), ...serverErrorDetails(error) };
  const fault = (kind: FaultKind, message: string, cause: unknown): ProtocolFault =>
    protocolFault(kind, message, cause, details);
  const stderr = describeStderr(evidence.stderr);
  if (error instanceof DeadlineExceeded) {
    if (site !== "connect") {
      return fault(
        "timeout",
        `server "${server}": ${site === "list" ? "listing" : "tools/call"} ${error.message}`,
        error,
      );
    }
    const garbage = evidence.garbage;
    if (garbage && garbage.count > 0) {
      return fault(
        "protocol",
        `server "${server}" did not complete initialize within ${error.ms} ms and wrote ${garbage.count} non-JSON-RPC line(s) to stdout (first: ${JSON.stringify(garbage.first)}).${stderr}`,
        error,
      );
    }
    return fault("timeout", `server "${server}" did not complete initialize within ${error.ms} ms.${stderr}`, error);
  }
  if (isResponseTooLarge(error)) return fault("protocol", `server "${server}": ${error.message}`, error);
  if (error instanceof CallerAborted) return fault("tool-error", `server "${server}": call ${error.message}`, error);
  const unauthorized = authFailure(error);
  if (unauthorized !== undefined) {
    if (evidence.machineGrant) {
      return fault(
        "unauthorized",
        `server "${server}" could not get an access token with its client credentials: ${unauthorized}`,
        error,
      );
    }
    const hint = evidence.signInHint ? `; ${evidence.signInHint}` : "";
    return fault("unauthorized", `server "${server}" needs a sign-in: ${unauthorized}${hint}`, error);
  }
  switch (site) {
    case "connect": {
      const notStarted = spawnError(error);
      if (notStarted)
        return fault("spawn-failed", `server "${server}" could not be started: ${notStarted}.${stderr}`, error);
      if (evidence.spawned) {
        const how = evidence.exit
          ? `${exitText(evidence.exit)} before completing initialize`
          : evidence.pipeLoss
            ? `${pipeLossText(evidence.pipeLoss)}, before completing initialize`
            : `could not be started (${errorText(error)})`;
        return fault("spawn-failed", `server "${server}" ${how}.${stderr}`, error);
      }
      return fault("transport", `could not connect to server "${server}": ${reason(error)}`, error);
    }
    case "list":
      return fault("protocol", `server "${server}": listing failed: ${reason(error)}`, error);
    case "call":
      return fault("tool-error", `server "${server}": ${reason(error)}`, error);
  }
}

function pipeLossText(loss: PipeLoss | undefined): string {
  switch (loss) {
    case "stdin-broken":
      return "stopped reading its stdin (broken pipe) while still running";
    case "stdout-closed":
    case undefined:
      return "closed its stdout while still running";
  }
}

/** The fault for a session whose transport closed without us closing it. */
export function connectionLostFault(
  server: string,
  transport: Transport,
  stderrTail: readonly string[],
): ProtocolFault {
  const details = detailsOf(
    server,
    transport instanceof ProcessStdioTransport ? transport.exitInfo : undefined,
    stderrTail,
  );
  if (transport instanceof ProcessStdioTransport) {
    if (transport.fatalError) {
      return protocolFault(
        "protocol",
        `server "${server}": ${transport.fatalError.message}; connection closed`,
        transport.fatalError,
        details,
      );
    }
    const how = transport.exitInfo ? exitText(transport.exitInfo) : pipeLossText(transport.pipeLoss);
    return protocolFault("transport", `server "${server}" ${how}.${describeStderr(stderrTail)}`, undefined, details);
  }
  return protocolFault("transport", `connection to server "${server}" closed`, undefined, details);
}
