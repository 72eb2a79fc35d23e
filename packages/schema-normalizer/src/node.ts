/** A normalized schema node: plain JSON, built fresh, never shared with input. */
export type SchemaNode = Record<string, unknown>;

/** Identity for de-duplication (key order counts; equal shapes stringify equally). */
export function canonicalKey(value: unknown): string {
  return JSON.stringify(value) ?? "undefined";
}

/** True when the node constrains nothing: only annotations, or no keys at all. */
export function isPermissive(node: SchemaNode): boolean {
  for (const key of Object.keys(node)) {
    if (key !== "title" && key !== "description") return false;
  }
  return true;
}

/** The node's annotations alone (what survives when its constraints cannot). */
export function annotationsOf(node: SchemaNode): SchemaNode {
  const out: SchemaNode = {};
  if (typeof node.title === "string") out.title = node.title;
  if (typeof node.description === "string") out.description = node.description;
  return out;
}
