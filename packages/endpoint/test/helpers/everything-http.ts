// Shared with fleet's tests through @indus/testkit.
export { startEverythingHttp } from "@indus/testkit";
export type { EverythingHttp } from "@indus/testkit";
