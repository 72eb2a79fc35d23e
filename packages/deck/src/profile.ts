/** The profile type, re-exported so deck users need one import. */
export type { Profile } from "@indus/contract";
