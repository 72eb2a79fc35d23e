/**
 * The SDK `Client` of one session: how it negotiates the era, and the 2026
 * era's `subscriptions/listen` stream that carries list changes there.
 */
import { Client, type McpSubscription } from "@modelcontextprotocol/client";
import type { ClientHostHooks, ProtocolMode } from "@indus/contract";
import type { ClientIdentity } from "../client-identity";
import { outsideCalls } from "../relay/call-context";
import { clientCapabilities } from "../relay/client-host";
import type { Session } from "../session";
import type { EndpointTimeouts } from "../endpoint-options";
import type { CallResultReading } from "../tools/raw-call-tap";

/** How long `auto` waits for the `server/discover` probe. */
export function probeMs(timeouts: EndpointTimeouts): number {
  return Math.min(timeouts.eraProbeMs, timeouts.startupMs);
}

/**
 * The SDK client, which can also read a `tools/call` result exactly as its
 * own request path does (the negotiated era's codec: a 2025 result loses any
 * `resultType`, a 2026-07-28 one is checked against that era's wire schema).
 * A raw call's answer never reaches the request path, so it is read here.
 */
export class SessionClient extends Client {
  readCallResult(raw: unknown): CallResultReading {
    const decoded = this._wireCodec().decodeResult("tools/call", raw);
    if (decoded.kind === "complete") return { kind: "complete", result: decoded.result };
    return decoded.kind === "invalid" ? { kind: "invalid", error: decoded.error } : { kind: "input_required" };
  }
}

/** A client for `mode`; the era probe is capped in `auto` only. */
export function newClient(
  mode: ProtocolMode,
  identity: ClientIdentity,
  host: ClientHostHooks | undefined,
  timeouts: EndpointTimeouts,
): SessionClient {
  const startupMs = timeouts.startupMs;
  return new SessionClient(
    { name: identity.name, version: identity.version },
    {
      capabilities: clientCapabilities(host),
      versionNegotiation: {
        mode: mode === "2026-07-28" ? { pin: mode } : mode,
        // Pinned, silence is a slow start, not a legacy server: wait as long as startup may take.
        probe: { timeoutMs: mode === "auto" ? probeMs(timeouts) : startupMs },
      },
      // We never call `listTools()`/`callTool()` (see `wire.ts`), so no schema is ever
      // compiled; this skips building an Ajv instance per connection.
      jsonSchemaValidator: {
        getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
      },
    },
  );
}

/** A listen stream, or why there is none (a server that offers no list changes has neither). */
export interface Listening {
  readonly subscription?: McpSubscription;
  readonly problem?: string;
}

/**
 * In the 2026 era list changes arrive only on a `subscriptions/listen`
 * stream; open one for the lists the server says change (and the resources
 * subscribed to). The stream is optional: a server that refuses it, or never
 * acknowledges it within `timeoutMs`, still works, without change following.
 */
export async function listen(
  client: Client,
  resourceSubscriptions: readonly string[],
  timeoutMs: number,
): Promise<Listening> {
  const capabilities = client.getServerCapabilities();
  const filter = {
    ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    ...(capabilities?.resources?.subscribe && resourceSubscriptions.length > 0
      ? { resourceSubscriptions: [...resourceSubscriptions] }
      : {}),
  };
  if (Object.keys(filter).length === 0) return {};
  try {
    return { subscription: await client.listen(filter, { timeout: timeoutMs }) };
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { problem: `not acknowledged within ${timeoutMs} ms (${why}); list changes are not followed` };
  }
}

/** A new 2026-era listen stream for the current filter, then the old one closed (no gap in updates). */
export async function relisten(
  session: Session,
  resourceSubscriptions: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const { subscription: next } = await outsideCalls(() => listen(session.client, resourceSubscriptions, timeoutMs));
  const previous = session.subscription;
  session.subscription = next;
  await previous?.close().catch(() => undefined);
}
