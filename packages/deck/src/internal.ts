/**
 * @indus/deck/internal: NOT PUBLIC API. Tuning constants and markers the
 * deck's own tests and tooling read; they may change in any release. Import
 * `@indus/deck` for everything a host needs.
 */
export { BASH_LIMITS } from "./tools/bash";
export { READ_LIMITS } from "./tools/read";
export { FETCH_LIMITS } from "./tools/webfetch";
export { GREP_LIMITS } from "./tools/grep-query";
export { TODO_GLYPHS, TODO_STATES, TODO_WEIGHTS } from "./cards/todo";
export { BG_CAPTURE_DIRNAME, MAX_BUFFERED_LINES, STOP_GRACE_MS } from "./cards/bg-process";
export { PLANS_DIRNAME } from "./cards/plan";
export { CATALOG_TABLE_END, CATALOG_TABLE_START } from "./catalog-table";
