/**
 * Skills a server offers through the Skills extension (SEP-2640). An entry is
 * the server's own JSON, passed through as sent (a gateway relays it); a
 * skill's identity is the pair (server, `uri`): its `name` is a label two
 * skills may share.
 */
import type { JsonObject } from "./json";

/** A `SKILL.md` frontmatter as JSON, verbatim; `name` and `description` are always there. */
export interface SkillFrontmatter extends JsonObject {
  readonly name: string;
  readonly description: string;
}

/**
 * One `skills/list` / `skills/get` entry: the `SKILL.md` URI, its frontmatter,
 * and every file of the skill with its digest (`resources`, or `"dynamic"`).
 */
export interface SkillEntry extends JsonObject {
  readonly uri: string;
  readonly frontmatter: SkillFrontmatter;
}

/** One skill file as read and verified against its entry (size, digest; for `SKILL.md` the frontmatter too). */
export interface SkillFile {
  /** The file's URI as the entry lists it. */
  readonly uri: string;
  readonly mimeType?: string;
  /** The file's text (absent for a file that is not UTF-8 text). */
  readonly text?: string;
  /** Size and digest were checked; false only for a `"dynamic"` skill, which publishes none. */
  readonly verified: boolean;
  /** The skill's own `SKILL.md`: the markdown after the frontmatter. */
  readonly body?: string;
}

const MANIFEST = "/SKILL.md";

/**
 * The skill's path: its `SKILL.md` URI without the scheme and `/SKILL.md`
 * (`skill://acme/refunds/SKILL.md` → `acme/refunds`). The last segment is the
 * skill's name; the ones before are the server's organising prefix.
 */
export function skillPath(uri: string): string {
  const afterScheme = uri.includes("://") ? uri.slice(uri.indexOf("://") + 3) : uri;
  return afterScheme.endsWith(MANIFEST) ? afterScheme.slice(0, -MANIFEST.length) : afterScheme;
}
