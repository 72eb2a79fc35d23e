/**
 * The `saas-action` app card: discover and execute tools the model is not
 * shown directly (deferred MCP server tools, third-party SaaS actions) through
 * the injected gateway. Names and vendor slugs (`github__create_issue`,
 * `GITHUB_CREATE_ISSUE`) pass through verbatim. A host that has no gateway
 * should not offer the card; called anyway, it answers with a typed stub.
 */
import type { JsonValue } from "@indus/contract";
import type { Capability, CapabilityCard, DeckContext } from "../vocabulary";
import { capabilityId } from "../vocabulary";
import { ArgError, inputObject, optString, reqEnum, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { unavailableResult } from "./unavailable";

const ACTIONS = ["discover", "execute"] as const;

export function buildSaasCapability(deck: DeckContext): Capability {
  const gateway = deck.framework.saas;
  return defineCard({
    name: "saas-action",
    label: "SaaS actions",
    readOnly: false,
    description:
      "Find and run tools that are not in your tool list (tools of deferred MCP servers, connected SaaS apps). action=discover searches them by name and description (query, optionally vendor = server or app) and returns each match's exact name, description and input schema; action=execute runs one by that exact name (slug) with params matching its schema.",
    parameters: objectSchema(
      {
        action: { type: "string", enum: [...ACTIONS] },
        vendor: { type: "string", description: "discover: only this MCP server or app, e.g. github." },
        query: { type: "string", description: "discover: what you want to do, in a few words." },
        slug: { type: "string", description: "execute: the tool or action name exactly as discovered." },
        params: { type: "object", description: "execute: the arguments, matching the discovered input schema." },
      },
      ["action"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const action = reqEnum(args, "action", ACTIONS);
      const vendor = optString(args, "vendor");
      const query = optString(args, "query");
      let slug: string | undefined;
      let params: JsonValue = {};
      if (action === "execute") {
        slug = reqString(args, ["slug", "name", "tool", "action_slug", "actionSlug"]);
        const raw = args.params ?? args.arguments ?? {};
        if (typeof raw !== "object" || raw === null || Array.isArray(raw))
          throw new ArgError('"params" must be an object');
        params = raw as JsonValue;
      }
      if (!gateway) {
        return unavailableResult({
          tool: "saas-action",
          reason: "no-saas-gateway",
          message: "No SaaS gateway is configured in this session, so SaaS actions cannot be discovered or run.",
        });
      }
      const value =
        action === "discover"
          ? await gateway.discover(
              { ...(vendor === undefined ? {} : { vendor }), ...(query === undefined ? {} : { query }) },
              ctx.signal,
            )
          : await gateway.execute(slug as string, params, ctx.signal);
      return typeof value === "string"
        ? { content: [{ type: "text", text: value }] }
        : { content: [{ type: "json", value }] };
    },
  });
}

export function saasCard(): CapabilityCard {
  return {
    id: capabilityId("saas-action"),
    title: "SaaS actions",
    summary:
      "discover | execute deferred MCP tools and third-party actions over the injected gateway (names verbatim); a typed stub when none.",
    profiles: ["all"],
    build: (ctx) => buildSaasCapability(ctx),
  };
}
