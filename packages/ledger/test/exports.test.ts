import * as api from "@indus/ledger";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "BRIDGE_KEY_PREFIX",
      "BRIDGE_OPS",
      "BridgeLedger",
      "asBridgeKey",
      "bridgeContentKey",
      "bridgeUlidKey",
      "canonicalJson",
      "contentDigest",
      "describeCapability",
      "enrollmentKey",
      "parseLog",
      "qualifyBridgeName",
      "reduceLedger",
      "serializeLog",
      "serverOfQualified",
      "toJsonLine",
      "unqualifiedTool",
    ].sort(),
  );
});
