/**
 * MCP resources and prompts in the interactive session: `@server:uri`
 * attaches a resource to the prompt, `/server:prompt args` runs a prompt, and
 * Tab completes server names, resource URIs and templates, and prompt names.
 * Listings are fetched once per session and server, on first use.
 */
import type { JsonObject } from "@indus/contract";
import type { McpCatalogView, PromptEntry, ResourceEntry } from "../../boot/boot-types";

/** `@server:uri`: a server id, a colon, then the URI up to the next space. */
const MENTION = /(^|\s)@([A-Za-z][A-Za-z0-9_-]*):(\S+)/g;

export interface Attachment {
  readonly server: string;
  readonly uri: string;
  readonly chars: number;
}

/** The text a resource read contributes: text contents verbatim, binary ones described. */
export function resourceText(result: JsonObject): string {
  const contents = Array.isArray(result["contents"]) ? result["contents"] : [];
  return contents
    .map((content) => {
      if (!content || typeof content !== "object" || Array.isArray(content)) return "";
      if (typeof content["text"] === "string") return content["text"];
      const blob = typeof content["blob"] === "string" ? content["blob"] : "";
      return `[binary ${typeof content["mimeType"] === "string" ? content["mimeType"] : "data"}, ${Math.floor((blob.length * 3) / 4)} bytes, not attached]`;
    })
    .join("\n");
}

/** The prompt with every `@server:uri` of a known server read and appended; failures are named, not fatal. */
export async function attachMentions(
  line: string,
  catalog: McpCatalogView,
  servers: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<{ prompt: string; attached: Attachment[]; failed: string[] }> {
  const attached: Attachment[] = [];
  const failed: string[] = [];
  const blocks: string[] = [];
  for (const match of line.matchAll(MENTION)) {
    const server = match[2]!;
    const uri = match[3]!;
    if (!servers.has(server)) continue;
    try {
      const text = resourceText(await catalog.readResource(server, uri, signal));
      blocks.push(`<resource server="${server}" uri="${uri}">\n${text}\n</resource>`);
      attached.push({ server, uri, chars: text.length });
    } catch (error) {
      failed.push(`@${server}:${uri}: ${(error as Error).message}`);
    }
  }
  return { prompt: blocks.length > 0 ? `${line}\n\n${blocks.join("\n\n")}` : line, attached, failed };
}

/** `/server:prompt a=1 b=2` (or positional values in the prompt's argument order). */
export function parsePromptCommand(
  line: string,
  prompts: readonly PromptEntry[],
): { prompt: PromptEntry; args: Record<string, string>; missing: string[] } | undefined {
  const [head, ...words] = line.slice(1).trim().split(/\s+/);
  const colon = head?.indexOf(":") ?? -1;
  if (!head || colon <= 0) return undefined;
  const server = head.slice(0, colon);
  const name = head.slice(colon + 1);
  const prompt = prompts.find((p) => p.server === server && p.name === name);
  if (!prompt) return undefined;
  const args: Record<string, string> = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq > 0) args[word.slice(0, eq)] = word.slice(eq + 1);
    else {
      const slot = prompt.arguments.filter((a) => args[a.name] === undefined)[0];
      if (slot) args[slot.name] = word;
    }
  }
  const missing = prompt.arguments.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  return { prompt, args, missing };
}

/** A `prompts/get` result as one user prompt: its messages' text, in order. */
export function promptText(result: JsonObject): string {
  const messages = Array.isArray(result["messages"]) ? result["messages"] : [];
  return messages
    .map((message) => {
      if (!message || typeof message !== "object" || Array.isArray(message)) return "";
      const content = message["content"];
      if (content && typeof content === "object" && !Array.isArray(content)) {
        if (typeof content["text"] === "string") return content["text"];
        const resource = content["resource"];
        if (
          resource &&
          typeof resource === "object" &&
          !Array.isArray(resource) &&
          typeof resource["text"] === "string"
        )
          return resource["text"];
      }
      return "";
    })
    .filter((text) => text.length > 0)
    .join("\n\n");
}

/** Tab completion for `@server:uri`, `/server:skill` and `/server:prompt`, on top of the slash command names. */
export class MentionCompleter {
  private readonly resources = new Map<string, Promise<readonly ResourceEntry[]>>();
  private prompts: Promise<readonly PromptEntry[]> | undefined;

  constructor(
    private readonly catalog: McpCatalogView | undefined,
    private readonly servers: () => readonly string[],
    private readonly commands: readonly string[],
    /** More `/…` commands (the servers' skills), asked for when completing. */
    private readonly moreCommands: () => Promise<readonly string[]> = () => Promise.resolve([]),
  ) {}

  promptList(): Promise<readonly PromptEntry[]> {
    this.prompts ??= this.catalog ? this.catalog.prompts().catch(() => []) : Promise.resolve([]);
    return this.prompts;
  }

  private resourceList(server: string): Promise<readonly ResourceEntry[]> {
    let list = this.resources.get(server);
    if (!list) {
      list = this.catalog ? this.catalog.resources(server).catch(() => []) : Promise.resolve([]);
      this.resources.set(server, list);
    }
    return list;
  }

  /** Candidates for the word under the cursor (the line's last word), and that word. */
  async complete(line: string): Promise<[string[], string]> {
    const word = /\S*$/.exec(line)?.[0] ?? "";
    if (word.startsWith("@")) {
      const colon = word.indexOf(":");
      if (colon < 0) {
        const names = this.servers().map((s) => `@${s}:`);
        return [names.filter((n) => n.startsWith(word)), word];
      }
      const server = word.slice(1, colon);
      const rest = word.slice(colon + 1);
      const uris = (await this.resourceList(server)).map((r) => `@${server}:${r.uri}`);
      return [uris.filter((u) => u.startsWith(`@${server}:${rest}`)), word];
    }
    if (line.startsWith("/") && word === line) {
      const prompts = (await this.promptList()).map((p) => `/${p.server}:${p.name}`);
      const all = [...this.commands.map((c) => `/${c}`), ...(await this.moreCommands()), ...prompts];
      return [all.filter((c) => c.startsWith(word)), word];
    }
    return [[], word];
  }
}
