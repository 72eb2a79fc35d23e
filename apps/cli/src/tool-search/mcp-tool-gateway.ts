/**
 * The `saas-action` backend over MCP: `discover` searches the tools of every
 * configured server (those the model sees and the deferred ones) and returns
 * their qualified names, descriptions and input schemas; `execute` runs one
 * by that name. The gateway is created before the servers connect (the deck
 * is provisioned first) and attached to their tools once they have.
 */
import type { JsonValue } from "@indus/contract";
import type { Capability, SaasGatewayPort } from "@indus/deck";
import { localToolContext, resultText, type CapabilitySource } from "@indus/deck";
import type { ComposioBackend } from "./composio-backend";
import { ToolIndex, type IndexedTool } from "./tool-index";

export const DISCOVER_LIMIT = 8;

function serverOf(cap: Capability): string {
  const server = (cap as { server?: unknown }).server;
  return typeof server === "string" ? server : (cap.name.split("__")[0] ?? "");
}

/** A typed failure of `execute` the card turns into an error result. */
export class GatewayError extends Error {
  override readonly name = "GatewayError";
}

export class McpToolGateway implements SaasGatewayPort {
  private source: CapabilitySource | undefined;
  private index: ToolIndex | undefined;

  constructor(
    private readonly cwd: string,
    /** Composio's actions too, when a key is configured. */
    private readonly composio?: ComposioBackend,
  ) {}

  /** True when there is anything to discover: configured MCP servers, or Composio. */
  canServe(configuredServers: number): boolean {
    return configuredServers > 0 || this.composio !== undefined;
  }

  /** Serve these capabilities from now on (all MCP tools, deferred ones included). */
  attach(source: CapabilitySource): void {
    this.source = source;
    this.index = undefined;
    source.onChanged(() => (this.index = undefined));
  }

  private tools(): ToolIndex {
    this.index ??= new ToolIndex(
      (this.source?.capabilities() ?? []).map((cap): IndexedTool => ({
        name: cap.name,
        server: serverOf(cap),
        description: cap.description,
        inputSchema: cap.parameters,
      })),
    );
    return this.index;
  }

  async discover(
    query: { readonly vendor?: string; readonly query?: string },
    signal: AbortSignal,
  ): Promise<JsonValue> {
    const index = this.tools();
    const local = index.find(query.query, {
      ...(query.vendor !== undefined ? { server: query.vendor } : {}),
      limit: DISCOVER_LIMIT,
    });
    const remote =
      this.composio && local.length < DISCOVER_LIMIT
        ? await this.composio.discover(query.query, query.vendor, DISCOVER_LIMIT - local.length, signal)
        : [];
    const matches: IndexedTool[] = [
      ...local,
      ...remote.map((a) => ({
        name: a.name,
        server: a.server,
        description: a.description,
        inputSchema: a.inputSchema as IndexedTool["inputSchema"],
      })),
    ];
    const out: JsonValue = {
      matches: matches.map((tool) => ({
        name: tool.name,
        server: tool.server,
        description: tool.description,
        inputSchema: tool.inputSchema as JsonValue,
      })),
      ...(matches.length === 0
        ? { note: `No tool matched among ${index.size}; try other words, or no query to list them.` }
        : { next: 'Run one with action "execute", slug = its name, params = arguments matching its inputSchema.' }),
    };
    return out;
  }

  async execute(name: string, params: JsonValue, signal: AbortSignal): Promise<JsonValue> {
    const cap = this.source?.capabilities().find((c) => c.name === name);
    if (!cap && this.composio && !name.includes("__")) return this.composio.execute(name, params, signal);
    if (!cap) throw new GatewayError(`no MCP tool named "${name}": use action "discover" to find its exact name`);
    const result = await cap.run(params, localToolContext(this.cwd, { signal }));
    const text = resultText(result);
    if (result.isError === true) throw new GatewayError(text);
    return text;
  }
}
