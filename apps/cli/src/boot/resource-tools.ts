/**
 * Read-only `list_resources` and `read_resource` tools for the model, offered
 * when a mounted server declares resources: the model can browse what the
 * user could attach with `@server:uri`.
 */
import type { Capability } from "@indus/deck";
import { defineCard } from "@indus/deck";
import type { McpCatalogView } from "./boot-types";
import { resourceText } from "../agent/interactive/mentions";

const str = (input: unknown, key: string): string | undefined => {
  const value = (input as Record<string, unknown> | null)?.[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
};

export function resourceTools(catalog: McpCatalogView, servers: () => readonly string[]): Capability[] {
  const listResources = defineCard({
    name: "list_resources",
    label: "List MCP resources",
    readOnly: true,
    description:
      "List the resources (and resource templates) the mounted MCP servers offer, as server and URI. Read one with read_resource.",
    parameters: {
      type: "object",
      properties: { server: { type: "string", description: "Only this server's resources." } },
      additionalProperties: false,
    },
    async run(input) {
      const only = str(input, "server");
      const lines: string[] = [];
      for (const server of only ? [only] : servers()) {
        for (const r of await catalog.resources(server))
          lines.push(`${server}  ${r.uri}${r.template ? "  (template)" : ""}${r.name ? `  ${r.name}` : ""}`);
      }
      return { content: [{ type: "text", text: lines.length > 0 ? lines.join("\n") : "No resources." }] };
    },
  });
  const readResource = defineCard({
    name: "read_resource",
    label: "Read an MCP resource",
    readOnly: true,
    description: "Read one MCP resource by its server and URI (from list_resources); returns its text.",
    parameters: {
      type: "object",
      properties: { server: { type: "string" }, uri: { type: "string" } },
      required: ["server", "uri"],
      additionalProperties: false,
    },
    async run(input, ctx) {
      const server = str(input, "server");
      const uri = str(input, "uri");
      if (!server || !uri) throw new Error('"server" and "uri" are required');
      return { content: [{ type: "text", text: resourceText(await catalog.readResource(server, uri, ctx.signal)) }] };
    },
  });
  return [listResources, readResource];
}
