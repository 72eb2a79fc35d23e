/**
 * Republishes a box's gateway catalog (the resources and prompts of the
 * servers behind it) through one server. Shapes are MCP's own and pass
 * through untouched; names and URIs are whatever the catalog listed (already
 * namespaced by their source). Lists are served in one page. Completion is
 * served when the catalog can complete (`completions` is declared then).
 */
import type { GatewayCatalog, JsonObject } from "@indus/contract";
import type { Server } from "@modelcontextprotocol/server";
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

export function registerCatalogHandlers(server: Server, catalog: GatewayCatalog): void {
  handleStrictly(server, "resources/list", PAGINATED_PARAMS, (_params, ctx) =>
    guarded("list", async () => ({ resources: [...(await catalog.listResources({ signal: ctx.mcpReq.signal }))] })),
  );
  handleStrictly(server, "resources/templates/list", PAGINATED_PARAMS, (_params, ctx) =>
    guarded("list", async () => ({
      resourceTemplates: [...(await catalog.listResourceTemplates({ signal: ctx.mcpReq.signal }))],
    })),
  );
  handleStrictly(server, "resources/read", READ_RESOURCE_PARAMS, (params, ctx) =>
    guarded(
      "resource",
      async () => (await catalog.readResource(params.uri, { signal: ctx.mcpReq.signal })) as Result,
      params.uri,
    ),
  );
  handleStrictly(server, "prompts/list", PAGINATED_PARAMS, (_params, ctx) =>
    guarded("list", async () => ({ prompts: [...(await catalog.listPrompts({ signal: ctx.mcpReq.signal }))] })),
  );
  handleStrictly(server, "prompts/get", GET_PROMPT_PARAMS, (params, ctx) =>
    guarded(
      "prompt",
      async () =>
        (await catalog.getPrompt(params.name, params.arguments ?? {}, { signal: ctx.mcpReq.signal })) as Result,
    ),
  );
  const complete = catalog.complete?.bind(catalog);
  if (complete !== undefined) {
    handleStrictly(server, "completion/complete", COMPLETE_PARAMS, (params, ctx) =>
      guarded("prompt", async () => (await complete(params as JsonObject, { signal: ctx.mcpReq.signal })) as Result),
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
