/**
 * Resources, prompts and skills of the mounted servers, asked of one server at a
 * time (the interactive session names the server: `@everything:…`,
 * `/everything:simple-prompt`). A server that is not ready offers nothing.
 */
import type { JsonObject, McpFleet } from "@indus/contract";
import type { McpCatalogView, PromptEntry, ResourceEntry } from "./boot-types";
import { UsageError } from "../exit";
import { listSkillCommands } from "../skills/skill-commands";

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function promptArguments(item: JsonObject): PromptEntry["arguments"] {
  const args = Array.isArray(item["arguments"]) ? item["arguments"] : [];
  return args.flatMap((arg) =>
    arg && typeof arg === "object" && !Array.isArray(arg) && typeof arg["name"] === "string"
      ? [{ name: arg["name"], required: arg["required"] === true }]
      : [],
  );
}

export function serverCatalog(fleet: McpFleet | undefined): McpCatalogView {
  const ready = (server: string) => {
    const endpoint = fleet?.endpoint(server);
    if (!endpoint || endpoint.phase !== "ready") throw new UsageError(`no ready MCP server "${server}"`);
    return endpoint;
  };
  return {
    async resources(server) {
      const endpoint = ready(server);
      const [resources, templates] = await Promise.all([endpoint.listResources(), endpoint.listResourceTemplates()]);
      return [
        ...resources.map((r): ResourceEntry => ({ uri: r["uri"] as string, ...nameOf(r), template: false })),
        ...templates.map((t): ResourceEntry => ({ uri: t["uriTemplate"] as string, ...nameOf(t), template: true })),
      ];
    },
    readResource: (server, uri, signal) => ready(server).readResource(uri, signal ? { signal } : {}),
    async prompts() {
      const endpoints = (fleet?.endpoints() ?? []).filter((e) => e.phase === "ready");
      const lists = await Promise.all(
        endpoints.map(async (endpoint) =>
          (await endpoint.listPrompts().catch(() => [])).map((item): PromptEntry => ({
            server: endpoint.config.id,
            name: item["name"] as string,
            ...(text(item["description"]) !== undefined ? { description: text(item["description"])! } : {}),
            arguments: promptArguments(item),
          })),
        ),
      );
      return lists.flat();
    },
    getPrompt: (server, name, args) => ready(server).getPrompt(name, args),
    skills: () => listSkillCommands(fleet),
    loadSkill(skill, signal) {
      const endpoint = ready(skill.server);
      if (!endpoint.readSkill) throw new UsageError(`server "${skill.server}" offers no skills`);
      return endpoint.readSkill(skill.entry, undefined, signal ? { signal } : {});
    },
  };
}

function nameOf(item: JsonObject): { name?: string } {
  const name = text(item["name"]);
  return name !== undefined ? { name } : {};
}
