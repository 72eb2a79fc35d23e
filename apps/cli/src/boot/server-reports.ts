/**
 * Each mounted server as the commands report it (phase, era, tool count,
 * connect time, fault, stderr tail), read live from the fleet, and why a tool
 * may be missing while servers still connect.
 */
import type { McpBoot } from "@indus/deck";
import type { TrustSession } from "../trust/trust-session";
import type { ServerReport } from "./boot-types";
import { serverOf } from "./switchable-source";

/**
 * Why a tool may be missing: servers still connecting (a gateway serving
 * before every server settled, or a server reconnecting). A prefixed name
 * of one of them says so; otherwise they are named as possible owners.
 */
export function stillConnecting(servers: readonly ServerReport[], name: string): string | undefined {
  const connecting = servers.filter((s) => s.phase === "connecting" || s.phase === "idle").map((s) => s.id);
  const owner = connecting.find((id) => name.startsWith(`${id}__`));
  if (owner !== undefined) return `server "${owner}" is still connecting: its tools join when it is ready`;
  if (connecting.length === 0) return undefined;
  return `still connecting: ${connecting.map((id) => `"${id}"`).join(", ")} (their tools join when ready)`;
}

/** The servers' reports now; `connectMs` holds how long each took to settle; `trust`, how their definitions stand. */
export function reportsOf(mcp: McpBoot, connectMs: ReadonlyMap<string, number>, trust?: TrustSession): ServerReport[] {
  const mounted = new Map<string, number>();
  for (const cap of mcp.source.capabilities()) {
    const server = serverOf(cap);
    if (server !== undefined) mounted.set(server, (mounted.get(server) ?? 0) + 1);
  }
  // Live: a server still connecting at boot (a boot wait) reports how it settled later.
  const statuses = mcp.fleet?.status() ?? mcp.status;
  return mcp.servers.map((server) => {
    const status = statuses.get(server.id) ?? mcp.status.get(server.id);
    const endpoint = mcp.fleet?.endpoint(server.id);
    const origin = mcp.origins.get(server.id);
    return {
      id: server.id,
      transport: endpoint?.transportKind ?? server.transport,
      ...(endpoint?.era ? { era: endpoint.era } : {}),
      ...(origin ? { source: origin.file } : {}),
      phase: endpoint?.phase ?? status?.phase ?? "idle",
      // What the agent sees: counted after includeTools/excludeTools, not what the server listed.
      toolCount: mounted.get(server.id) ?? 0,
      ...(connectMs.has(server.id) ? { connectMs: connectMs.get(server.id)! } : {}),
      ...(status?.fault ? { fault: { kind: status.fault.kind, message: status.fault.message } } : {}),
      ...(endpoint ? liveFacts(endpoint, server.id, trust) : {}),
      ...(trust ? { trust: trust.report(server.id) } : {}),
    };
  });
}

/** What only a live endpoint knows: a failed tool listing, issues with what it listed, its instructions, its last stderr lines. */
function liveFacts(
  endpoint: NonNullable<ReturnType<NonNullable<McpBoot["fleet"]>["endpoint"]>>,
  server: string,
  trust: TrustSession | undefined,
): Pick<ServerReport, "listFault" | "issues" | "instructions" | "stderrTail"> {
  const tail = endpoint.stderrTail(20);
  // Inspected before the report reads the trust standing, so its findings are in it.
  const said = endpoint.instructions;
  const instructions = said && trust ? trust.screenInstructions(server, said).text : said;
  const listFault = endpoint.phase === "ready" ? endpoint.listFault : undefined;
  const issues = endpoint.phase === "ready" ? endpoint.issues : [];
  return {
    ...(listFault ? { listFault: { kind: listFault.kind, message: listFault.message } } : {}),
    ...(issues.length > 0 ? { issues } : {}),
    ...(instructions ? { instructions } : {}),
    ...(tail.length > 0 ? { stderrTail: tail } : {}),
  };
}
