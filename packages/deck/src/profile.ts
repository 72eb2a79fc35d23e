/**
 * The profile type. `@indus/contract` defines `PROFILES` but its barrel does
 * not re-export the `Profile` type, so it is derived here from the same tuple.
 */
import type { PROFILES } from "@indus/contract";

export type Profile = (typeof PROFILES)[number];
