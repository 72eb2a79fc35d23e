/**
 * The SDK `Client` of one session: how it negotiates the era, and the 2026
 * era's `subscriptions/listen` stream that carries list changes there.
 */
import { Client, SdkError, SdkErrorCode, type McpSubscription } from "@modelcontextprotocol/client";
import type { ClientHostHooks, ProtocolMode } from "@indus/contract";
import type { ClientIdentity } from "../client-identity";
import { outsideCalls } from "../relay/call-context";
import { clientCapabilities } from "../relay/client-host";
import type { Session } from "../session";
import type { EndpointTimeouts } from "../endpoint-options";

/** How long `auto` waits for the `server/discover` probe. */
export function probeMs(timeouts: EndpointTimeouts): number {
  return Math.min(timeouts.eraProbeMs, timeouts.startupMs);
}

type ClientInfo = ConstructorParameters<typeof Client>[0];

/**
 * The SDK client, which also lends its codec to raw calls (see
 * `tools/raw-call.ts`), whose request and answer skip its request path: the
 * envelope a 2026-07-28 request carries, and the reading of a `tools/call`
 * result, are the negotiated era's own.
 */
export class SessionClient extends Client {
  constructor(
    private readonly info: ClientInfo,
    options: ConstructorParameters<typeof Client>[1],
  ) {
    super(info, options);
  }

  /**
   * The `_meta` envelope a raw call carries once a modern era is negotiated
   * (the revision, this client, and no capabilities: a raw call can answer no
   * question); undefined in the 2025 era, which has none.
   */
  rawCallEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const version = this.getNegotiatedProtocolVersion();
    if (version === undefined || this.getProtocolEra() !== "modern") return undefined;
    return this._wireCodec().outboundEnvelope({
      protocolVersion: version,
      clientInfo: this.info,
      clientCapabilities: {},
    });
  }

  /**
   * A `tools/call` result as the request path reads it: a 2025 one loses any
   * `resultType`, a 2026-07-28 one must be `complete` and pass that era's wire
   * schema; else the error the request would fail with. A call that declared
   * no capabilities cannot be asked for input, so `input_required` is unsupported.
   */
  readCallResult(raw: unknown): Record<string, unknown> | Error {
    const decoded = this._wireCodec().decodeResult("tools/call", raw);
    if (decoded.kind === "complete") return decoded.result;
    if (decoded.kind === "invalid") return decoded.error;
    return new SdkError(SdkErrorCode.UnsupportedResultType, "Unsupported result type 'input_required' for tools/call");
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
