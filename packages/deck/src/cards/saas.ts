/**
 * The `saas-action` app card: discover and execute third-party SaaS actions
 * through the injected gateway. Vendor action slugs (`GITHUB_CREATE_ISSUE`)
 * pass through verbatim. Without a gateway the card answers with a typed stub.
 */
import type { Capability, CapabilityCard, DeckContext, JsonValue } from "@indus/contract";
import { capabilityId } from "@indus/contract";
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
      "Use third-party SaaS apps (GitHub, Slack, Gmail, ...). action=discover finds available actions (filter by vendor and/or query); action=execute runs one by its exact slug (e.g. GITHUB_CREATE_ISSUE) with params.",
    parameters: objectSchema(
      {
        action: { type: "string", enum: [...ACTIONS] },
        vendor: { type: "string", description: "discover: the app, e.g. github." },
        query: { type: "string", description: "discover: what you want to do." },
        slug: { type: "string", description: "execute: the action slug exactly as discovered." },
        params: { type: "object", description: "execute: the action's arguments." },
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
        slug = reqString(args, ["slug", "action_slug", "actionSlug"]);
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
      return { content: [{ type: "json", value }] };
    },
  });
}

export function saasCard(): CapabilityCard {
  return {
    id: capabilityId("saas-action"),
    title: "SaaS actions",
    summary:
      "discover | execute third-party actions over the injected gateway (slugs verbatim); a typed stub when none.",
    profiles: ["all"],
    build: (ctx) => buildSaasCapability(ctx),
  };
}
