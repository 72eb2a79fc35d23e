/**
 * Local `$ref` resolution: `#`, `#/$defs/x`, `#/definitions/x` and any JSON
 * Pointer into the root document. Remote references, `$anchor` names and
 * `$id`-relative bases are not resolved (the caller widens them to `{}`).
 */
import { isArray, isRecordLike, ownProperty } from "./read";

/** Longer references are refused unread: real pointers are short. */
export const MAX_REF_LENGTH = 2048;

export const UNRESOLVED = Symbol("unresolved");

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Follows a local reference from `root`; UNRESOLVED when it leads nowhere. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref.length > MAX_REF_LENGTH || !ref.startsWith("#")) return UNRESOLVED;
  if (ref === "#" || ref === "#/") return ref === "#" ? root : UNRESOLVED;
  if (!ref.startsWith("#/")) return UNRESOLVED; // `#anchor`
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(2));
  } catch {
    return UNRESOLVED;
  }
  let current: unknown = root;
  for (const raw of pointer.split("/")) {
    const segment = unescapeSegment(raw);
    if (isArray(current)) {
      if (!ARRAY_INDEX.test(segment)) return UNRESOLVED;
      current = ownProperty(current, segment);
      if (current === undefined) return UNRESOLVED;
    } else if (isRecordLike(current)) {
      current = ownProperty(current, segment);
      if (current === undefined) return UNRESOLVED;
    } else {
      return UNRESOLVED;
    }
  }
  return current;
}
