import * as api from "@indus/fleet";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "EndpointFleet",
      "FleetCatalog",
      "GATEWAY_URI_PREFIX",
      "MountedToolBox",
      "defaultConcurrency",
      "gatewayUri",
      "mountProtocolBridge",
      "parseGatewayUri",
      "projectBlock",
      "projectResult",
      "startServerFleet",
      "sseServer",
      "stdioServer",
      "streamableHttpServer",
      "toolFilter",
    ].sort(),
  );
});
