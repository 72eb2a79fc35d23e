/**
 * @indus/deck: the agent's capability deck. One uniform callable (`Card`) for
 * built-in tools, app cards and grafted MCP tools; one catalog every lookup is
 * derived from; profiles; provisioning into the runtime tool box; MCP config
 * discovery and event-sourced grafting.
 */
// Vocabulary: cards, catalog rows, profiles, host handles, tool context, faults
export { DeckFault, isDeckFault } from "./vocabulary";
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

// Provisioning and the runtime box (catalog lookups: `@indus/deck/catalog`)
export { provisionDeck } from "./provision";
export { ToolDeck, describeCapability } from "./tool-deck";
export type { CapabilitySource, ToolBoxOptions } from "./tool-deck";
export { deckContext } from "./options";
export type { DeckOptions, DeckSetup, SearchEngine } from "./options";
export { foldResult, resultText } from "./results";
export { canonToolName, selectTools } from "./canon";
export type { ToolSelection } from "./canon";
export { CheckpointingCard, maybeWrapCheckpoint } from "./checkpoint";
export { MemoryReadState } from "./read-state";
export { localToolContext } from "./local-context";
export { defineCard } from "./card";
export type { CardSpec } from "./card";

// Built-in tool settings
export { searxngBackend } from "./tools/websearch-backends";
export { chooseSearchBackend } from "./tools/websearch";
export type { SearchBackendChoice } from "./tools/websearch";
export type { WebSearchBackend, WebSearchHit } from "./tools/websearch-backends";
export { findRipgrep, resolveSearchEngine } from "./tools/ripgrep";
export type { ResolvedEngine } from "./tools/ripgrep";

// App cards and plan files
export { appNovelCards } from "./cards";
export type { TodoItem, TodoState, TodoWeight } from "./cards/todo";
export { planFilePath, planSlug, readPlan, writePlan } from "./cards/plan";
export type { UnavailableBackend } from "./cards/unavailable";

// MCP: boot from a config, grafting (config files, dialects, policy: `@indus/deck/mcp-config`;
// pins and the trust gate: `@indus/deck/trust`)
export { resolveMcpConfig } from "./mcp/resolve";
export type { ResolvedMcpConfig } from "./mcp/resolve";
export { loadMcpCapabilities } from "./mcp/boot";
export type { McpBoot, McpBootOptions, McpInvocation } from "./mcp/boot";
export { BridgeCapability, bridgeBoxToCapabilities, bridgeCapabilityCard } from "./mcp/bridge-capability";
export { LiveBridge, emptyBridgeLedger } from "./mcp/live-bridge";
export type { DeckBridgeLedger } from "./mcp/live-bridge";
export { attachBridgeCapabilities, bridgeStatus, bridgeToolCounts, bridgeToolNames, detachBridge } from "./mcp/attach";
export type { AttachOptions, AttachResult, ServerProgress } from "./mcp/attach";
