// Shared with fleet's tests through @indus/testkit.
export { descendantsOf, eventually, inGroups, isAlive, liveInGroups, processTable } from "@indus/testkit";
export type { PsRow } from "@indus/testkit";
