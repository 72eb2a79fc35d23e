import * as api from "@indus/provider-host";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "DEFAULT_HOST_INFO",
      "DEFAULT_MAX_BODY_BYTES",
      "DEFAULT_TOKEN_ENV",
      "StdioHostTransport",
      "createClientRelay",
      "createProviderHost",
      "serveHttp",
      "serveStdio",
      "toCallToolResult",
      "toMcpContent",
      "toMcpTool",
    ].sort(),
  );
});
