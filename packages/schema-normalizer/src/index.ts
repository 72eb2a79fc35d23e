/**
 * @indus/schema-normalizer: turn an untrusted MCP `inputSchema` into the
 * defensive JSON Schema subset every model provider accepts.
 */
export { normalizeSchema } from "./normalize";
export { NORMALIZE_DEFAULTS, NORMALIZE_TARGETS } from "./options";
export type { NormalizeOptions, NormalizeTarget, ResolvedOptions } from "./options";
export { STRIPPED_KEYWORDS } from "./keywords";
