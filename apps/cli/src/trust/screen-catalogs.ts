/**
 * The commands that report on servers (`mcp status`, `doctor`) list each
 * ready server's prompts, resources and templates once, so the trust gate
 * sees every kind of definition (and pins it on first use), not only tools.
 * A server that did not declare a kind, or whose trust is "off" (nothing to
 * pin), is not asked. A listing that fails (an error, no answer in time) is
 * kept as an issue of its server, so the report calls it `degraded` with the
 * reason instead of `ready`.
 */
import { ProtocolFault, type McpEndpoint, type McpFleet } from "@indus/contract";

/** JSON-RPC "method not found": a server that declares resources may still have no templates to list. */
const METHOD_NOT_FOUND = -32601;

/** A fleet that says when each server settles. */
export type SettlingFleet = Pick<McpFleet, "endpoints"> & {
  onEndpointSettled(listener: (endpoint: McpEndpoint) => void): () => void;
};

/** Screen every ready server's catalogs now. */
export async function screenCatalogs(fleet: McpFleet | undefined): Promise<void> {
  await Promise.all((fleet?.endpoints() ?? []).map(screenEndpoint));
}

/** `report` with the catalog listings that failed for it among its issues (so it reads `degraded`). */
export function withCatalogIssues<R extends { readonly id: string; readonly issues?: readonly string[] }>(
  report: R,
  catalogs: Pick<CatalogScreening, "issuesOf"> | undefined,
): R {
  const failed = catalogs?.issuesOf(report.id) ?? [];
  return failed.length === 0 ? report : { ...report, issues: [...(report.issues ?? []), ...failed] };
}

/**
 * Screening that starts for each server as it settles, while the others are
 * still connecting (their start-up and its listings overlap), instead of
 * after the last one: `done()` screens whatever had not started and waits
 * for all of it.
 */
export class CatalogScreening {
  private readonly started = new Map<McpEndpoint, Promise<void>>();
  private readonly failures = new Map<string, readonly string[]>();
  private readonly unsubscribe: () => void;

  constructor(private readonly fleet: SettlingFleet) {
    this.unsubscribe = fleet.onEndpointSettled((endpoint) => void this.screen(endpoint));
  }

  async done(): Promise<void> {
    this.unsubscribe();
    await Promise.all(this.fleet.endpoints().map((endpoint) => this.screen(endpoint)));
  }

  /** The catalog listings of `server` that failed, one line each (empty when none did). */
  issuesOf(server: string): readonly string[] {
    return this.failures.get(server) ?? [];
  }

  private screen(endpoint: McpEndpoint): Promise<void> {
    let screening = this.started.get(endpoint);
    if (screening === undefined) {
      screening = screenEndpoint(endpoint).then((failed) => {
        if (failed.length > 0) this.failures.set(endpoint.config.id, failed);
      });
      this.started.set(endpoint, screening);
    }
    return screening;
  }
}

/** `prompts/list: <why it failed>`, or undefined when the listing succeeded. */
async function failureOf(method: string, listing: Promise<unknown>): Promise<string | undefined> {
  try {
    await listing;
    return undefined;
  } catch (error) {
    if (ProtocolFault.isInstance(error) && error.rpcCode === METHOD_NOT_FOUND) return undefined;
    return `${method}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** List the server's declared catalogs for the gate; what failed, one line each. */
async function screenEndpoint(endpoint: McpEndpoint): Promise<string[]> {
  if (endpoint.phase !== "ready" || endpoint.config.trust === "off") return [];
  const declared = endpoint.serverCapabilities ?? {};
  const listings: Promise<string | undefined>[] = [];
  if (declared["prompts"] !== undefined) listings.push(failureOf("prompts/list", endpoint.listPrompts()));
  if (declared["resources"] !== undefined) {
    listings.push(failureOf("resources/list", endpoint.listResources()));
    listings.push(failureOf("resources/templates/list", endpoint.listResourceTemplates()));
  }
  return (await Promise.all(listings)).filter((failure): failure is string => failure !== undefined);
}
