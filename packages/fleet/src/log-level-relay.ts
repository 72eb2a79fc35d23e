/**
 * `logging/setLevel` for a whole fleet: sent to every connected server that
 * declared `logging`, and remembered, so a server that connects (or
 * reconnects) later gets the level too. A server that refuses is skipped.
 */
import type { GatewayCallOptions, LogLevel, McpEndpoint } from "@indus/contract";
import { readyEndpoints } from "./follow-endpoints";
import type { EndpointFleet } from "./server-fleet";

function logs(endpoint: McpEndpoint): boolean {
  return endpoint.setLogLevel !== undefined && endpoint.serverCapabilities?.["logging"] !== undefined;
}

export class LogLevelRelay {
  private level: LogLevel | undefined;
  /** The level each endpoint was last given, so a replacement reaches only the new ones. */
  private readonly given = new WeakMap<McpEndpoint, LogLevel>();

  constructor(private readonly fleet: EndpointFleet) {
    fleet.onEndpointsReplaced(() => void this.apply(false));
  }

  async set(level: LogLevel, options: GatewayCallOptions = {}): Promise<void> {
    this.level = level;
    await this.apply(true, options);
  }

  private async apply(again: boolean, options: GatewayCallOptions = {}): Promise<void> {
    const level = this.level;
    if (level === undefined) return;
    const targets = readyEndpoints(this.fleet).filter(
      (endpoint) => logs(endpoint) && (again || this.given.get(endpoint) !== level),
    );
    await Promise.all(
      targets.map(async (endpoint) => {
        try {
          await endpoint.setLogLevel!(level, options);
          this.given.set(endpoint, level);
        } catch {
          // One server refusing a level must not fail the others.
        }
      }),
    );
  }
}
