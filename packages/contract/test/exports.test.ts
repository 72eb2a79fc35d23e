import * as api from "@indus/contract";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "BridgeConfigSchema",
      "DECK_FAULT_KINDS",
      "DeckFault",
      "ENDPOINT_PHASES",
      "FAULT_KINDS",
      "OAuthSettingsSchema",
      "PROFILES",
      "ProtocolFault",
      "QUALIFIER",
      "ReconnectPolicySchema",
      "SERVER_ID_PATTERN",
      "ServerConfigSchema",
      "SseServerConfigSchema",
      "StdioServerConfigSchema",
      "StreamableHttpServerConfigSchema",
      "TOOL_NAME_PATTERN",
      "TRANSPORT_KINDS",
      "capabilityId",
      "isDeckFault",
      "isFaultKind",
      "isProfile",
      "isProtocolFault",
      "isServerId",
      "isTerminalPhase",
      "isUsablePhase",
      "memoryTokenStore",
      "parseBridgeConfig",
      "parseServerConfig",
      "protocolFault",
      "qualifyToolName",
      "sseServer",
      "stdioServer",
      "streamableHttpServer",
    ].sort(),
  );
});
