/**
 * The endpoint's requests, each part built over the session port: the tool
 * list and tool calls, resources and prompts, skills, and the relayed members
 * (completions, subscriptions, logs, roots changes).
 */
import type { ServerConfig } from "@indus/contract";
import { CatalogRequests } from "./catalog/catalog-requests";
import { SkillsMember } from "./catalog/skills";
import type { EndpointLifecycle } from "./connect/lifecycle";
import { relisten } from "./connect/session-client";
import type { EndpointOptions, EndpointTimeouts } from "./endpoint-options";
import type { RelayRouter } from "./relay/relay-routing";
import { RelayMembers } from "./relay/relay-members";
import { ToolCalls } from "./tools/tool-calls";
import { ToolCatalog } from "./tools/tool-catalog";

export interface EndpointMembers {
  readonly tools: ToolCatalog;
  readonly calls: ToolCalls;
  readonly catalog: CatalogRequests;
  readonly skills: SkillsMember;
  readonly relay: RelayMembers;
}

/** What the parts need besides the lifecycle. */
export interface MembersSetup {
  readonly config: ServerConfig;
  readonly options: EndpointOptions;
  readonly timeouts: EndpointTimeouts;
  /** Which client answers the server's requests for input (see `relay-routing.ts`). */
  readonly router: RelayRouter;
}

export function endpointMembers(lifecycle: EndpointLifecycle, setup: MembersSetup): EndpointMembers {
  const { access, state } = lifecycle;
  const { config, timeouts } = setup;
  const tools = new ToolCatalog({
    server: config.id,
    listMs: timeouts.listMs,
    ready: () => state.phase === "ready" && state.session !== undefined,
    current: () => state.session,
    notConnected: (what) => access.notConnected(what),
    onSession: (what, op) => access.onSession(what, "list", op),
    toFault: (error) => access.toFault("list", error),
  });
  const catalog = new CatalogRequests(access);
  const skills = new SkillsMember({
    server: config.id,
    onClient: (what, op) => access.onSession(what, "list", (session) => op(session.client)),
    timeoutMs: () => timeouts.callMs,
  });
  return {
    tools,
    calls: new ToolCalls(access, tools),
    catalog,
    skills,
    relay: relayMembers(lifecycle, setup, catalog),
  };
}

function relayMembers(lifecycle: EndpointLifecycle, setup: MembersSetup, catalog: CatalogRequests): RelayMembers {
  const { access, state } = lifecycle;
  const { options, timeouts, router } = setup;
  const relay: RelayMembers = new RelayMembers({
    request: (what, method, params, call) => catalog.request(what, { method, params }, call),
    era: (what) => access.readySession(what).era,
    relisten: async () => {
      const session = access.readySession("change resource subscriptions");
      await relisten(session, relay.resourceSubscriptions, timeouts.startupMs);
    },
    rootsChanged: async () => {
      const session = access.readySession("notify roots changed");
      if (options.host?.listRoots) await session.client.sendRootsListChanged();
    },
    callLogs: () => router.logsNow(state.session?.kind === "stdio" && state.session.era === "2026-07-28"),
  });
  return relay;
}
