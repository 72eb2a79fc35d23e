/**
 * @indus/contract: the frozen, IO-free vocabulary every indus package speaks.
 */
export { FAULT_KINDS, ProtocolFault, isFaultKind, isProtocolFault, protocolFault } from "./fault";
export type { FaultDetails, FaultKind } from "./fault";
export { brandFault, faultBrand, hasFaultBrand, isIndusFault } from "./brand";
export { ENDPOINT_PHASES, isTerminalPhase, isUsablePhase, serverCondition } from "./phase";
export type { EndpointPhase, ServerCondition } from "./phase";
export {
  MAX_TOOL_NAME_LENGTH,
  QUALIFIER,
  SERVER_ID_PATTERN,
  TOOL_NAME_PATTERN,
  isServerId,
  qualifyToolName,
  withNameSuffix,
} from "./names";
export type { RemoteToolRef } from "./names";
export {
  BridgeConfigSchema,
  OAuthSettingsSchema,
  ReconnectPolicySchema,
  ServerConfigSchema,
  SseServerConfigSchema,
  StdioServerConfigSchema,
  StreamableHttpServerConfigSchema,
  TRANSPORT_KINDS,
  clientAuthMethod,
  parseBridgeConfig,
  parseServerConfig,
  sseServer,
  stdioServer,
  streamableHttpServer,
} from "./server-config";
export type {
  BridgeConfig,
  ClientAuthMethod,
  ConfigIssue,
  ConfigParse,
  HttpServerConfig,
  JwtSigningAlgorithm,
  OAuthGrant,
  OAuthSettings,
  ReconnectPolicy,
  ServerConfig,
  ServerConfigInput,
  SseServerConfig,
  StdioServerConfig,
  StreamableHttpServerConfig,
  TransportKind,
} from "./server-config";
export { memoryTokenStore } from "./token-store";
export { LEGACY_VERDICT_REASONS, PROTOCOL_ERAS, PROTOCOL_MODES, memoryEraVerdictStore } from "./protocol-era";
export { decliningClientHost } from "./client-host";
export type { ClientHostHooks, ElicitationAnswer, ElicitationMode } from "./client-host";
export type { EraVerdict, EraVerdictStore, LegacyVerdictReason, ProtocolEra, ProtocolMode } from "./protocol-era";
export type { StoredCredentials, TokenStore } from "./token-store";
export type {
  AuthorizationStep,
  ClientIdentity,
  EndpointOAuthOptions,
  EndpointOptions,
  EndpointTimeouts,
} from "./endpoint-options";
export type { JsonObject, JsonPrimitive, JsonSchema, JsonValue } from "./json";
export { isRecord, ownKeyCount } from "./json";
export { MAX_JSON_DEPTH, formatJsonPath, sameJson, tooDeepAt } from "./wire/json-bounds";
export type { JsonPath } from "./wire/json-bounds";
export { TEXT_SLICE_UNITS, textSlices, writeSlices } from "./wire/text-slices";
export { isPlainTextBlock } from "./wire/text-block";
export type { SliceOutput } from "./wire/text-slices";
export type { EndpointStatus, FleetStatus, RemoteCallResult, RemoteTool } from "./remote";
export { LOG_LEVELS } from "./call-logs";
export type { CallLogs, LogLevel } from "./call-logs";
export type { GatewayCallOptions, GatewayCatalog, GatewayChange, ServerLogEntry } from "./gateway";
export type { InputRound, ServerQuestions } from "./input-round";
export { serverQuestionsOf } from "./input-round";
export type {
  InvokeOptions,
  McpEndpoint,
  McpFleet,
  MountServers,
  MountedServers,
  ServerEndpoint,
  ServerFleet,
  ToolsChange,
} from "./bridge";
export type { ToolAnnotations, ToolBox, ToolDescriptor } from "./tool-box";
export { AccessPolicySchema, parseAccessPolicy } from "./gateway-access";
export type {
  AccessGrant,
  AccessPolicy,
  AccessPolicyInput,
  AccessRule,
  Caller,
  CallerMatch,
  RateLimit,
  TraceContext,
} from "./gateway-access";
export type {
  ForwardRaw,
  RawAnswer,
  RawCall,
  RawForward,
  RpcError,
  RunOptions,
  ToolCall,
  ToolContentBlock,
  ToolOutcome,
  ToolProgress,
  ToolResult,
  ToolRunner,
} from "./tool-run";
export { APP_VIEW_MIME_TYPE, EXTENSIONS } from "./extensions";
export { TASK_METHODS, isTaskMethod } from "./task";
export type { CreatedTask, TaskMethod, TaskMode, TaskStatus, TaskView } from "./task";
export type { ExtensionName } from "./extensions";
export { skillPath } from "./skills";
export type { SkillEntry, SkillFile, SkillFrontmatter } from "./skills";
export { invalidParamHeaders, paramHeaderArgument, paramHeaderDeclarations } from "./wire/param-headers";
export type { ParamHeaderDeclaration } from "./wire/param-headers";
export { DEFINITION_KINDS, FINDING_RULES, UI_SCHEME, WITHHELD_REASONS, presentedUi } from "./trust";
export { TRUST_MODES } from "./trust-mode";
export type { TrustMode } from "./trust-mode";
export type {
  DefinitionFinding,
  DefinitionGate,
  DefinitionKind,
  DefinitionVerdict,
  FindingRule,
  ListedDefinition,
  WithheldDefinition,
  WithheldReason,
} from "./trust";
