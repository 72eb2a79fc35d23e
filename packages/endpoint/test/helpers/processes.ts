// Shared with fleet's tests through @indus/testkit.
export { descendantsOf, inGroups, isAlive, liveInGroups, processTable, waitFor } from "@indus/testkit";
export type { PsRow } from "@indus/testkit";
