/**
 * One connected SDK client and its transport: what the endpoint replaces on
 * a reconnect or a re-initialized HTTP session, and closes on shutdown.
 */
import {
  StreamableHTTPClientTransport,
  type Client,
  type McpSubscription,
  type Transport,
} from "@modelcontextprotocol/client";
import type { ProtocolEra, TransportKind } from "@indus/contract";
import type { RawCallTap } from "./tools/raw-call-tap";

export interface Session {
  readonly client: Client;
  readonly transport: Transport;
  readonly kind: TransportKind;
  /** The era negotiated; set once connected. */
  era: ProtocolEra;
  /** The `subscriptions/listen` stream of a modern session (list_changed arrives only there). */
  subscription?: McpSubscription | undefined;
  /** Set once this session is being replaced or closed on purpose. */
  retired: boolean;
  /** Where calls taken raw go on this connection (stdio sessions; see `raw-call-tap.ts`). */
  rawCalls?: RawCallTap | undefined;
}

/** How long a polite goodbye (listen stream close, HTTP DELETE) may take before we stop waiting. */
const SESSION_CLOSE_MS = 3_000;

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Close one session: HTTP DELETE for a Streamable HTTP session, then the transport. Never throws. */
export async function endSession(session: Session, terminate: boolean): Promise<void> {
  session.retired = true;
  if (session.subscription) {
    await Promise.race([session.subscription.close().catch(() => undefined), delay(SESSION_CLOSE_MS)]);
  }
  if (terminate && session.transport instanceof StreamableHTTPClientTransport && session.transport.sessionId) {
    const transport = session.transport;
    await Promise.race([transport.terminateSession().catch(() => undefined), delay(SESSION_CLOSE_MS)]);
  }
  try {
    await session.client.close();
  } catch {
    // close() never throws.
  }
}
