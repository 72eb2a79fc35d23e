/**
 * A content block of the plainest form: `{ type: "text", text }`, nothing
 * else. Every SDK schema of either era passes it unchanged, so a raw call's
 * result made of such blocks is passed on without one, on both sides of a gateway.
 */
import { isRecord, ownKeyCount } from "../json";

export function isPlainTextBlock(block: unknown): boolean {
  return isRecord(block) && block["type"] === "text" && typeof block["text"] === "string" && ownKeyCount(block) === 2;
}
