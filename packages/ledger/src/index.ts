/**
 * @indus/ledger: event-sourced enrollment of MCP tools. An append-only
 * enroll/retire log, folded by one pure reducer into the live set.
 */
export { BridgeLedger } from "./ledger";
export type { LedgerLoad } from "./ledger";
export { reduceLedger } from "./snapshot";
export type { LedgerSnapshot } from "./snapshot";
export { BRIDGE_OPS } from "./entry";
export type { BridgeEntry, BridgeOp, EnrollEntry, EnrollRequest, RetireEntry } from "./entry";
export { describeCapability } from "./capability";
export type { CapabilityDescriptor, DescribeCapability, LedgerCapability } from "./capability";
export { BRIDGE_KEY_PREFIX, asBridgeKey, bridgeContentKey, bridgeUlidKey, contentDigest, enrollmentKey } from "./keys";
export type { BridgeKey } from "./keys";
export { qualifyBridgeName, serverOfQualified, unqualifiedTool } from "./names";
export { canonicalJson } from "./canonical-json";
export { parseLog, serializeLog, toJsonLine } from "./json-lines";
export type { LogLineError, LogLineErrorKind, ParsedLog, ResolveCapability } from "./json-lines";
