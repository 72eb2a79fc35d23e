/**
 * The commands that report on servers (`mcp status`, `doctor`) list each
 * ready server's prompts, resources and templates once, so the trust gate
 * sees every kind of definition (and pins it on first use), not only tools.
 * A server that did not declare a kind, or whose trust is "off" (nothing to
 * pin), is not asked; a failing listing is left to the commands that use it.
 */
import type { McpFleet } from "@indus/contract";

export async function screenCatalogs(fleet: McpFleet | undefined): Promise<void> {
  const ready = (fleet?.endpoints() ?? []).filter(
    (endpoint) => endpoint.phase === "ready" && endpoint.config.trust !== "off",
  );
  await Promise.all(
    ready.flatMap((endpoint) => {
      const declared = endpoint.serverCapabilities ?? {};
      const listings: Promise<unknown>[] = [];
      if (declared["prompts"] !== undefined) listings.push(endpoint.listPrompts());
      if (declared["resources"] !== undefined)
        listings.push(endpoint.listResources(), endpoint.listResourceTemplates());
      return listings.map((listing) => listing.catch(() => undefined));
    }),
  );
}
