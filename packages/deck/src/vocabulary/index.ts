/** The deck's vocabulary, one concept a file; moved here from `@indus/contract`. */
export type { Capability, Card } from "./card";
export { capabilityId } from "./capability-id";
export type { CapabilityId } from "./capability-id";
export { PROFILES, isProfile } from "./profile";
export type { Profile } from "./profile";
export type { BuildFn, CapabilityCard } from "./capability-card";
export type { DeckContext, DeckFramework } from "./deck-context";
export type { ReadRecord, ReadStateHandle } from "./read-state";
export type { CheckpointStore } from "./checkpoint-store";
export type { DelegateAnswer, DelegateRequest, DelegateRunner } from "./delegate";
export type { SaasGatewayPort } from "./saas-gateway";
export type { MemoryStore } from "./memory-store";
export { DECK_FAULT_KINDS, DeckFault, isDeckFault } from "./deck-fault";
export type { DeckFaultKind, DeckResult } from "./deck-fault";
export type { FsSeam, ShellRunResult, ShellSeam, ShellSpawnRequest, ToolContext } from "./tool-context";
