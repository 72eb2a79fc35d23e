/**
 * Size caps on what a handshake carries into every later run and prompt: a
 * server's `instructions` go to the model with each turn and into the era
 * verdict file, so a 30 MB one is cut at the edge, with an issue.
 */
import type { JsonObject } from "@indus/contract";

/** Characters of `instructions` kept (a long manual fits; a flood does not). */
export const MAX_INSTRUCTIONS_CHARS = 64 * 1024;
const HANDSHAKES = new Set(["initialize", "server/discover"]);

/** Cut an over-long `instructions` in a handshake result, in place; the issue, if any. */
export function capInstructions(method: string, result: Record<string, unknown>): string[] {
  const instructions = result["instructions"];
  if (!HANDSHAKES.has(method) || typeof instructions !== "string") return [];
  if (instructions.length <= MAX_INSTRUCTIONS_CHARS) return [];
  result["instructions"] = instructions.slice(0, MAX_INSTRUCTIONS_CHARS);
  return [`instructions cut to ${MAX_INSTRUCTIONS_CHARS} of ${instructions.length} characters`];
}

/** Largest discover result an era verdict keeps (as JSON text); a bigger one is not remembered. */
export const MAX_VERDICT_DISCOVER_CHARS = 128 * 1024;

/**
 * What a modern verdict keeps of a `server/discover` result: what connecting
 * from it needs (versions, capabilities, instructions, the server's identity),
 * nothing else; undefined when even that is too big to remember.
 */
export function discoverToKeep(discover: Record<string, unknown>): JsonObject | undefined {
  const meta = discover["_meta"] as Record<string, unknown> | undefined;
  const serverInfo = meta?.["io.modelcontextprotocol/serverInfo"];
  const kept = {
    supportedVersions: discover["supportedVersions"],
    capabilities: discover["capabilities"],
    ...(typeof discover["instructions"] === "string" ? { instructions: discover["instructions"] } : {}),
    ...(serverInfo === undefined ? {} : { _meta: { "io.modelcontextprotocol/serverInfo": serverInfo } }),
  };
  const text = JSON.stringify(kept);
  return text.length > MAX_VERDICT_DISCOVER_CHARS ? undefined : (JSON.parse(text) as JsonObject);
}
