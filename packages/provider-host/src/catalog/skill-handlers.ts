/**
 * Serves the Skills extension (SEP-2640) for a catalog that relays skills:
 * `skills/list` (one page) and `skills/get`, entries as the catalog
 * publishes them. A skill's files are resources and are read through
 * `resources/read` like any other. Declared (`capabilities.extensions`) by
 * the host only when the catalog relays skills.
 */
import type { GatewayCatalog } from "@indus/contract";
import {
  GetSkillRequestParamsSchema,
  ListSkillsRequestParamsSchema,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from "@modelcontextprotocol/core/ext/skills";
import type { CacheHint, Server, ServerContext } from "@modelcontextprotocol/server";
import { toRpcError } from "../rpc-errors";
import { handleStrictly } from "../strict-handlers";
import { isModern } from "../tools/tool-call";

/** Whether `catalog` relays skills (the host then declares and serves the extension). */
export function relaysSkills(catalog: GatewayCatalog | undefined): boolean {
  return catalog?.listSkills !== undefined && catalog.getSkill !== undefined;
}

/**
 * `cacheHint`: the `ttlMs` / `cacheScope` a 2026-07-28 result must carry (the
 * SDK's own cache hints cover only its spec methods).
 */
export function registerSkillHandlers(server: Server, catalog: GatewayCatalog, cacheHint: CacheHint): void {
  if (!relaysSkills(catalog)) return;
  const cacheFields = (ctx: ServerContext) => (isModern(ctx) ? { ...cacheHint } : {});
  handleStrictly(server, SKILLS_LIST_METHOD, ListSkillsRequestParamsSchema, async (_params, ctx) => {
    try {
      return { skills: [...(await catalog.listSkills!({ signal: ctx.mcpReq.signal }))], ...cacheFields(ctx) };
    } catch (error) {
      throw toRpcError(error, "list");
    }
  });
  handleStrictly(server, SKILLS_GET_METHOD, GetSkillRequestParamsSchema, async (params, ctx) => {
    try {
      return { skill: await catalog.getSkill!(params.uri, { signal: ctx.mcpReq.signal }), ...cacheFields(ctx) };
    } catch (error) {
      // An unknown skill is -32602 with its URI, as for an unknown resource.
      throw toRpcError(error, "resource", params.uri);
    }
  });
}
