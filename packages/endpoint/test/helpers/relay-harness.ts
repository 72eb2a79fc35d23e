/**
 * The relay fixture in the setups the relay tests share: a Streamable HTTP
 * copy started once per file, endpoints closed after each test.
 */
import type { ServerConfig, StdioServerConfig } from "@indus/contract";
import { memoryEraVerdictStore } from "@indus/contract";
import { createServerEndpoint, type EndpointOptions, type McpServerEndpoint } from "@indus/endpoint";
import { relay, startRelayHttp, type RelayHttpServer } from "@indus/testkit";

export type RelaySetup = readonly [transport: "stdio" | "streamable-http", protocol: "legacy" | "2026-07-28"];

/**
 * Legacy over HTTP is left out: the SDK's stateless legacy serving can send
 * neither server requests nor unsolicited updates.
 */
export const RELAY_SETUPS: readonly RelaySetup[] = [
  ["stdio", "legacy"],
  ["stdio", "2026-07-28"],
  ["streamable-http", "2026-07-28"],
];

/**
 * Registers the file's hooks; `connect` opens an endpoint to the fixture in one setup, closed after the test;
 * `shared`, called in a describe, opens one for all of that describe's tests (a stdio fixture is a Node
 * process loading the SDK: started once, not once per test) and returns a getter for it.
 */
export function relayHarness(): {
  connect(setup: RelaySetup, options?: EndpointOptions, extra?: Partial<StdioServerConfig>): Promise<McpServerEndpoint>;
  shared(setup: RelaySetup, options?: EndpointOptions): () => McpServerEndpoint;
} {
  let http: RelayHttpServer;
  let open: McpServerEndpoint[] = [];
  beforeAll(async () => {
    http = await startRelayHttp();
  });
  afterAll(() => http.close());
  afterEach(async () => {
    await Promise.all(open.map((endpoint) => endpoint.close()));
    open = [];
  });
  const start = async (
    [transport, protocol]: RelaySetup,
    options: EndpointOptions,
    extra: Partial<StdioServerConfig>,
  ) => {
    const config: ServerConfig =
      transport === "stdio"
        ? relay("relay", [], { protocol, ...extra })
        : { transport, id: "relay", url: http.url, headers: {}, protocol };
    const endpoint = createServerEndpoint(config, undefined, { eraVerdicts: memoryEraVerdictStore(), ...options });
    await endpoint.open().catch(async (error: unknown) => {
      await endpoint.close();
      throw error;
    });
    return endpoint;
  };
  return {
    async connect(setup, options = {}, extra = {}) {
      const endpoint = await start(setup, options, extra);
      open.push(endpoint);
      return endpoint;
    },
    shared(setup, options = {}) {
      let endpoint: McpServerEndpoint | undefined;
      beforeAll(async () => {
        endpoint = await start(setup, options, {});
      });
      afterAll(() => endpoint?.close());
      return () => endpoint!;
    },
  };
}

/** The text of a result's first content block. */
export const firstText = (result: { content: readonly unknown[] }): string =>
  (result.content[0] as { text: string }).text;
