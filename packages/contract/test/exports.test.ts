import * as api from "@indus/contract";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "BridgeConfigSchema",
      "ENDPOINT_PHASES",
      "FAULT_KINDS",
      "OAuthSettingsSchema",
      "PROTOCOL_ERAS",
      "PROTOCOL_MODES",
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
      "brandFault",
      "faultBrand",
      "hasFaultBrand",
      "isIndusFault",
      "isFaultKind",
      "isProtocolFault",
      "isServerId",
      "isTerminalPhase",
      "isUsablePhase",
      "memoryEraVerdictStore",
      "memoryTokenStore",
      "decliningClientHost",
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
