/**
 * How far a server's definitions are trusted: `pin` (the default) pins them
 * and withholds changes; `strict` also withholds whatever inspection flags;
 * `off` takes them as they come.
 */
export const TRUST_MODES = ["pin", "strict", "off"] as const;
export type TrustMode = (typeof TRUST_MODES)[number];
