import * as api from "@indus/endpoint";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "CLIENT_NAME",
      "CLIENT_VERSION",
      "DEFAULT_CLIENT_INFO",
      "DEFAULT_CLOSE_GRACE_MS",
      "DEFAULT_MAX_MESSAGE_BYTES",
      "DEFAULT_TIMEOUTS",
      "MAX_TOOL_NAME_LENGTH",
      "McpServerEndpoint",
      "assignToolNames",
      "closeAllServerProcesses",
      "createServerEndpoint",
      "diffTools",
      "fileEraVerdictStore",
      "isLegalToolName",
      "liveProcessGroups",
      "sanitizeToolName",
      "shortHash",
      "sseServer",
      "stdioServer",
      "streamableHttpServer",
      "signIn",
      "uriTemplateMatches",
    ].sort(),
  );
});
