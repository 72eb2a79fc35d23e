/**
 * @indus/deck: the agent's capability deck. One uniform callable (`Card`) for
 * built-in tools, app cards and grafted MCP tools; one catalog every lookup is
 * derived from; profiles; provisioning into the runtime tool box; MCP config
 * discovery and event-sourced grafting.
 */
// Vocabulary: cards, catalog rows, profiles, host handles, tool context, faults
export { DECK_FAULT_KINDS, DeckFault, PROFILES, capabilityId, isDeckFault, isProfile } from "./vocabulary";
export type {
  BuildFn,
  Capability,
  CapabilityCard,
  CapabilityId,
  Card,
  CheckpointStore,
  DeckContext,
  DeckFaultKind,
  DeckFramework,
  DeckResult,
  DelegateAnswer,
  DelegateRequest,
  DelegateRunner,
  FsSeam,
  MemoryStore,
  Profile,
  ReadRecord,
  ReadStateHandle,
  SaasGatewayPort,
  ShellRunResult,
  ShellSeam,
  ShellSpawnRequest,
  ToolContext,
} from "./vocabulary";

// Catalog and provisioning
export {
  capabilityCards,
  capabilityIndex,
  capabilityIds,
  cardInProfile,
  cardProfiles,
  cardsForProfile,
  findCard,
  hasCapability,
  indexCapabilityCards,
} from "./catalog";
export {
  MUTATING_PROFILES,
  READ_ONLY_PROFILES,
  buildBuiltin,
  buildBuiltinsForProfile,
  builtinCards,
  builtinDescriptors,
  builtinIds,
  builtinProfiles,
  isReadOnlyMembership,
} from "./builtin";
export type { BuiltinDescriptor } from "./builtin";
export { cardsForDeckProfile, provisionDeck } from "./provision";
export { ToolDeck, describeCapability, isCapabilitySource } from "./tool-deck";
export type { CapabilitySource, ToolBoxOptions } from "./tool-deck";
export { deckContext, optionsOf } from "./options";
export type { DeckOptions, DeckSetup, SearchEngine } from "./options";
export { foldResult, resultText } from "./results";
export { canonToolName, selectTools } from "./canon";
export type { ToolSelection } from "./canon";
export { CHECKPOINTED_TOOLS, CheckpointingCard, maybeWrapCheckpoint } from "./checkpoint";
export { MemoryReadState } from "./read-state";
export { localToolContext } from "./local-context";
export { defineCard } from "./card";
export type { CardSpec } from "./card";

// Built-in tool settings and limits
export { searxngBackend } from "./tools/websearch-backends";
export { braveBackend, tavilyBackend } from "./tools/websearch-keyed";
export { chooseSearchBackend } from "./tools/websearch";
export type { SearchBackendChoice } from "./tools/websearch";
export type { WebSearchBackend, WebSearchHit } from "./tools/websearch-backends";
export { findRipgrep, resolveSearchEngine } from "./tools/ripgrep";
export type { ResolvedEngine } from "./tools/ripgrep";

// App cards
export { appNovelCards } from "./cards";
export { TodoLedger, todoCard } from "./cards/todo";
export type { TodoItem, TodoState, TodoWeight } from "./cards/todo";
export { bgProcessCard } from "./cards/bg-process";
export { taskCard } from "./cards/task";
export { saasCard } from "./cards/saas";
export { InMemoryStore, memoryCard } from "./cards/memory";
export { enterPlanModeCard, exitPlanModeCard, planFilePath, planSlug, readPlan, writePlan } from "./cards/plan";
export type { UnavailableBackend } from "./cards/unavailable";

// MCP config discovery
export { loadMcpConfig, mcpConfigSearchPaths, parseConfigDocument, parseMcpConfigText } from "./mcp/config";
export type {
  McpConfigDiagnostic,
  McpConfigLoad,
  McpConfigScope,
  McpDiagnosticKind,
  McpLoadOptions,
  McpServerOrigin,
  PendingApproval,
  PendingRow,
  ApprovedRow,
  ApprovedRows,
  SearchPath,
} from "./mcp/config";
export { MCP_DIALECTS, dialectOfFile } from "./mcp/dialect";
export type { McpDialect } from "./mcp/dialect";
export { approvalStateFile, approveProjectRows, approvedRows } from "./mcp/approval";
export { readPeerFile } from "./mcp/peer-import";
export {
  MANAGED_POLICY_FILE,
  loadManagedPolicy,
  managedPolicyFile,
  parseManagedPolicy,
  policyVerdict,
} from "./mcp/managed-policy";
export type { ManagedPolicy, PolicySubject, PolicyVerdict, ServerRule } from "./mcp/managed-policy";
export type { ImportedServer, PeerFileRead } from "./mcp/peer-import";
export type { InputDefinition } from "./mcp/peer-rows";
export type { EnvLookup } from "./mcp/placeholders";
export { catalogMarkdown, withCatalogTable } from "./catalog-table";

// MCP grafting
export { BridgeCapability, bridgeBoxToCapabilities, bridgeCapabilityCard } from "./mcp/bridge-capability";
export { LiveBridge, emptyBridgeLedger } from "./mcp/live-bridge";
export type { DeckBridgeLedger } from "./mcp/live-bridge";
export { attachBridgeCapabilities, bridgeStatus, bridgeToolCounts, bridgeToolNames, detachBridge } from "./mcp/attach";
export type { AttachOptions, AttachResult, ServerProgress } from "./mcp/attach";
export { loadMcpCapabilities } from "./mcp/boot";
export { resolveMcpConfig } from "./mcp/resolve";
export type { ResolvedMcpConfig } from "./mcp/resolve";
export type { McpBoot, McpBootOptions, McpInvocation } from "./mcp/boot";

// Trust: pins of every definition, inspection, the gate the mount asks
export { PinGate } from "./trust/pin-gate";
export type { AddedDefinition, FlaggedDefinition, PinGateOptions, PinStore, TrustReport } from "./trust/pin-gate";
export {
  EMPTY_PIN_BOOK,
  LOCK_FILE_VERSION,
  parsePinBook,
  pinOf,
  serializePinBook,
  withMissingPins,
} from "./trust/pin-book";
export type { KindPins, ListedWith, MissingPins, Pin, PinBook, ServerPins } from "./trust/pin-book";
export { approvePins, describePinChange } from "./trust/pin-approval";
export type { Listings, OnlyDefinition, PinChange, PinChangeKind } from "./trust/pin-approval";
export { MAX_DEFINITION_CHARS, MAX_DESCRIPTION_CHARS, inspectDefinition } from "./trust/inspect";
export type { InspectContext } from "./trust/inspect";
export type { KnownTools } from "./trust/cross-server";
export { definitionName, pinnedDefinition } from "./trust/pinned-definition";
export { addedMessage, approveCommand, definitionLabel, findingText, withheldMessage } from "./trust/withheld-message";
export { withoutHidden as visibleText } from "./trust/hidden-characters";
