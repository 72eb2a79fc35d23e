/**
 * Republishes a box's gateway catalog (the resources and prompts of the
 * servers behind it) through one server. Shapes are MCP's own and pass
 * through untouched; names and URIs are whatever the catalog listed (already
 * namespaced by their source). Lists are served in one page. Completion is
 * served when the catalog can complete (`completions` is declared then).
 * Reads, prompt gets and completions run for the client that asked (`peer`),
 * like calls: a server's question during one goes to that client only, and
 * so do the log messages it causes (`logs`).
 */
import type { CallLogs, ClientHostHooks, GatewayCallOptions, GatewayCatalog, JsonObject } from "@indus/contract";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { toRpcError } from "./rpc-errors";
import type { CatalogSite } from "./rpc-errors";
import {
  COMPLETE_PARAMS,
  GET_PROMPT_PARAMS,
  PAGINATED_PARAMS,
  READ_RESOURCE_PARAMS,
  handleStrictly,
} from "./strict-handlers";

type Result = Record<string, unknown>;

/** The asking client as hooks, when its requests can be answered within the request (2025 era). */
export type PeerOf = (ctx: ServerContext) => ClientHostHooks | undefined;

/** The asking client's channel for the log messages its request causes. */
export type LogsOf = (ctx: ServerContext) => CallLogs | undefined;

export function registerCatalogHandlers(
  server: Server,
  catalog: GatewayCatalog,
  peerOf: PeerOf,
  logsOf: LogsOf = () => undefined,
): void {
  const forCaller = (ctx: ServerContext): GatewayCallOptions => {
    const peer = peerOf(ctx);
    const logs = logsOf(ctx);
    return {
      signal: ctx.mcpReq.signal,
      ...(peer !== undefined && { peer }),
      ...(logs !== undefined && { logs }),
    };
  };
  handleStrictly(server, "resources/list", PAGINATED_PARAMS, (_params, ctx) =>
    guarded("list", async () => ({ resources: [...(await catalog.listResources({ signal: ctx.mcpReq.signal }))] })),
  );
  handleStrictly(server, "resources/templates/list", PAGINATED_PARAMS, (_params, ctx) =>
    guarded("list", async () => ({
      resourceTemplates: [...(await catalog.listResourceTemplates({ signal: ctx.mcpReq.signal }))],
    })),
  );
  handleStrictly(server, "resources/read", READ_RESOURCE_PARAMS, (params, ctx) =>
    guarded("resource", async () => (await catalog.readResource(params.uri, forCaller(ctx))) as Result, params.uri),
  );
  handleStrictly(server, "prompts/list", PAGINATED_PARAMS, (_params, ctx) =>
    guarded("list", async () => ({ prompts: [...(await catalog.listPrompts({ signal: ctx.mcpReq.signal }))] })),
  );
  handleStrictly(server, "prompts/get", GET_PROMPT_PARAMS, (params, ctx) =>
    guarded(
      "prompt",
      async () => (await catalog.getPrompt(params.name, params.arguments ?? {}, forCaller(ctx))) as Result,
    ),
  );
  const complete = catalog.complete?.bind(catalog);
  if (complete !== undefined) {
    handleStrictly(server, "completion/complete", COMPLETE_PARAMS, (params, ctx) =>
      guarded("prompt", async () => (await complete(params as JsonObject, forCaller(ctx))) as Result),
    );
  }
}

async function guarded<T>(site: CatalogSite, work: () => Promise<T>, uri?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toRpcError(error, site, uri);
  }
}
