/**
 * Republishes a box's gateway catalog (the resources and prompts of the
 * servers behind it) through one session's server. Shapes are MCP's own and
 * pass through untouched; names and URIs are whatever the catalog listed
 * (already namespaced by their source). Lists are served in one page.
 */
import type { GatewayCatalog } from "@indus/contract";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type {
  GetPromptResult,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { toRpcError } from "./rpc-errors";
import { handleStrictly } from "./strict-handlers";
import type { CatalogSite } from "./rpc-errors";

export function registerCatalogHandlers(server: Server, catalog: GatewayCatalog): void {
  handleStrictly(server, ListResourcesRequestSchema, (_request, extra) =>
    guarded(
      "list",
      async () =>
        ({
          resources: [...(await catalog.listResources({ signal: extra.signal }))],
        }) as ListResourcesResult,
    ),
  );
  handleStrictly(server, ListResourceTemplatesRequestSchema, (_request, extra) =>
    guarded(
      "list",
      async () =>
        ({
          resourceTemplates: [...(await catalog.listResourceTemplates({ signal: extra.signal }))],
        }) as ListResourceTemplatesResult,
    ),
  );
  handleStrictly(server, ReadResourceRequestSchema, (request, extra) =>
    guarded(
      "resource",
      async () => (await catalog.readResource(request.params.uri, { signal: extra.signal })) as ReadResourceResult,
    ),
  );
  handleStrictly(server, ListPromptsRequestSchema, (_request, extra) =>
    guarded(
      "list",
      async () =>
        ({
          prompts: [...(await catalog.listPrompts({ signal: extra.signal }))],
        }) as ListPromptsResult,
    ),
  );
  handleStrictly(server, GetPromptRequestSchema, (request, extra) =>
    guarded(
      "prompt",
      async () =>
        (await catalog.getPrompt(request.params.name, request.params.arguments ?? {}, {
          signal: extra.signal,
        })) as GetPromptResult,
    ),
  );
}

async function guarded<T>(site: CatalogSite, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toRpcError(error, site);
  }
}
