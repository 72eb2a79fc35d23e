import * as api from "@indus/fleet";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "EndpointFleet",
      "FleetCatalog",
      "GATEWAY_URI_PREFIX",
      "MountedToolBox",
      "NAMING_MODES",
      "defaultConcurrency",
      "fleetMount",
      "gatewayUri",
      "mountProtocolBridge",
      "nameClashFault",
      "nameClashOf",
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

it("exports the test doubles from the testing subpath", async () => {
  const testing = await import("@indus/fleet/testing");
  expect(Object.keys(testing).sort()).toEqual(["FakeEndpoint", "fakeEndpoints", "fakeServer", "textResult"]);
});
