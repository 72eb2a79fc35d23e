/**
 * Republishes a box's gateway catalog (the resources and prompts of the
 * servers behind it) through one server. Shapes are MCP's own and pass
 * through untouched; names and URIs are whatever the catalog listed (already
 * namespaced by their source). Lists are served in one page. Completion is
 * served when the catalog can complete (`completions` is declared then).
 * Reads, prompt gets and completions run for the client that asked (`relayTo`),
 * like calls: a server's question during one goes to that client only, and
 * so do the log messages it causes (`logs`); a 2026-07-28 client is asked in
 * `input_required` rounds (`rounds`), as for a call.
 */
import type { CallLogs, ClientHostHooks, GatewayCallOptions, GatewayCatalog, JsonObject } from "@indus/contract";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { inRounds } from "./catalog-rounds";
import type { InputRounds } from "../tools/input-rounds";
import { toRpcError } from "../rpc-errors";
import type { CatalogSite } from "../rpc-errors";
import { isModern } from "../tools/tool-call";
import {
  COMPLETE_PARAMS,
  GET_PROMPT_PARAMS,
  PAGINATED_PARAMS,
  READ_RESOURCE_PARAMS,
  handleStrictly,
} from "../strict-handlers";

type Result = Record<string, unknown>;

/** The asking client as hooks, when its requests can be answered within the request (2025 era). */
export type RelayToOf = (ctx: ServerContext) => ClientHostHooks | undefined;

/** The asking client's channel for the log messages its request causes. */
export type LogsOf = (ctx: ServerContext) => CallLogs | undefined;

/** Who answers for the asking client: its hooks and log channel (2025 era), or input rounds (2026-07-28). */
export interface CatalogCallers {
  readonly relayToOf: RelayToOf;
  readonly logsOf?: LogsOf;
  readonly rounds?: InputRounds;
}

export function registerCatalogHandlers(
  server: Server,
  catalog: GatewayCatalog,
  { relayToOf, logsOf = () => undefined, rounds }: CatalogCallers,
): void {
  const forCaller = (ctx: ServerContext): GatewayCallOptions => {
    const relayTo = relayToOf(ctx);
    const logs = logsOf(ctx);
    return {
      signal: ctx.mcpReq.signal,
      ...(relayTo !== undefined && { relayTo }),
      ...(logs !== undefined && { logs }),
    };
  };
  /** `work` for the asking client: within this request (2025 era), or in rounds (2026-07-28). */
  const forClient = <T>(ctx: ServerContext, name: string, work: (options: GatewayCallOptions) => Promise<T>) =>
    rounds !== undefined && isModern(ctx) ? inRounds(rounds, ctx, name, work) : work(forCaller(ctx));
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
      async () =>
        (await forClient(ctx, `resources/read ${params.uri}`, (options) =>
          catalog.readResource(params.uri, options),
        )) as Result,
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
        (await forClient(ctx, `prompts/get ${params.name}`, (options) =>
          catalog.getPrompt(params.name, params.arguments ?? {}, options),
        )) as Result,
    ),
  );
  const complete = catalog.complete?.bind(catalog);
  if (complete !== undefined) {
    handleStrictly(server, "completion/complete", COMPLETE_PARAMS, (params, ctx) =>
      guarded(
        "prompt",
        async () =>
          (await forClient(ctx, "completion/complete", (options) => complete(params as JsonObject, options))) as Result,
      ),
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
