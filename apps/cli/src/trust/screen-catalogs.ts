/**
 * The commands that report on servers (`mcp status`, `doctor`) list each
 * ready server's prompts, resources and templates once, so the trust gate
 * sees every kind of definition (and pins it on first use), not only tools.
 * A server that did not declare a kind, or whose trust is "off" (nothing to
 * pin), is not asked; a failing listing is left to the commands that use it.
 */
import type { McpEndpoint, McpFleet } from "@indus/contract";

/** A fleet that says when each server settles. */
export type SettlingFleet = Pick<McpFleet, "endpoints"> & {
  onEndpointSettled(listener: (endpoint: McpEndpoint) => void): () => void;
};

/** Screen every ready server's catalogs now. */
export async function screenCatalogs(fleet: McpFleet | undefined): Promise<void> {
  await Promise.all((fleet?.endpoints() ?? []).map(screenEndpoint));
}

/**
 * Screening that starts for each server as it settles, while the others are
 * still connecting (their start-up and its listings overlap), instead of
 * after the last one: `done()` screens whatever had not started and waits
 * for all of it.
 */
export class CatalogScreening {
  private readonly started = new Map<McpEndpoint, Promise<void>>();
  private readonly unsubscribe: () => void;

  constructor(private readonly fleet: SettlingFleet) {
    this.unsubscribe = fleet.onEndpointSettled((endpoint) => void this.screen(endpoint));
  }

  async done(): Promise<void> {
    this.unsubscribe();
    await Promise.all(this.fleet.endpoints().map((endpoint) => this.screen(endpoint)));
  }

  private screen(endpoint: McpEndpoint): Promise<void> {
    let screening = this.started.get(endpoint);
    if (screening === undefined) {
      screening = screenEndpoint(endpoint);
      this.started.set(endpoint, screening);
    }
    return screening;
  }
}

async function screenEndpoint(endpoint: McpEndpoint): Promise<void> {
  if (endpoint.phase !== "ready" || endpoint.config.trust === "off") return;
  const declared = endpoint.serverCapabilities ?? {};
  const listings: Promise<unknown>[] = [];
  if (declared["prompts"] !== undefined) listings.push(endpoint.listPrompts());
  if (declared["resources"] !== undefined) listings.push(endpoint.listResources(), endpoint.listResourceTemplates());
  await Promise.all(listings.map((listing) => listing.catch(() => undefined)));
}
