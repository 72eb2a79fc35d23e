/**
 * A definition that names another server's tools is steering the model
 * toward them (tool shadowing): "before using this tool, call
 * github__create_issue", "use the send_email tool of the mail server". Found
 * by the names the other mounted servers are known to offer (listed this run
 * or pinned before), their qualified `<server>__<tool>` form, another
 * server's id next to "server" or "tool", and Claude Code's `mcp__<server>__`
 * names. A server naming its own tools is normal and never flagged.
 */

/** What the other mounted servers are known to offer: server id → tool names. */
export type KnownTools = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * A bare tool name distinctive enough that meeting it in prose means the
 * tool (`send_email`, `get-issue`, `createIssue`), not an ordinary word.
 */
function distinctive(name: string): boolean {
  return name.length >= 4 && (/[_-]/u.test(name) || /[a-z][A-Z]/u.test(name));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

function mentions(folded: string, word: string): boolean {
  const lower = word.toLowerCase();
  if (!folded.includes(lower)) return false;
  return new RegExp(`(?<![a-z0-9_-])${escape(lower)}(?![a-z0-9_-])`, "u").test(folded);
}

const serverMentions = new Map<string, RegExp>();

/** `<id> server`, `<id> tools`, `server "<id>"`, ...: compiled once per server id. */
function serverMention(id: string): RegExp {
  let pattern = serverMentions.get(id);
  if (pattern === undefined) {
    pattern = new RegExp(
      `\\b${escape(id)}\\b\\s+(?:server|tools?|mcp)\\b|\\b(?:server|mcp)\\s+["'\`]?${escape(id)}\\b`,
      "u",
    );
    serverMentions.set(id, pattern);
  }
  return pattern;
}

/** The other servers (and their tools) that already folded `text` names; empty for none. */
export function crossServerMentions(folded: string, server: string, known: KnownTools): string[] {
  const found: string[] = [];
  const own = known.get(server) ?? new Set<string>();
  for (const [other, tools] of known) {
    if (other === server) continue;
    const id = other.toLowerCase();
    if (folded.includes(`${id}__`)) found.push(`names ${other}__... (a tool of server "${other}")`);
    else if (id.length >= 3 && folded.includes(id) && serverMention(id).test(folded))
      found.push(`names server "${other}"`);
    for (const tool of tools) {
      if (own.has(tool) || !distinctive(tool)) continue;
      if (mentions(folded, tool)) found.push(`names tool "${tool}" of server "${other}"`);
    }
  }
  if (/\bmcp__[a-z0-9_-]+__[a-z0-9_-]+/u.test(folded))
    found.push("names another client's MCP tool (mcp__<server>__<tool>)");
  return found;
}
