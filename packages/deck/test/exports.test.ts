import * as api from "@indus/deck";

// Pins the public runtime surface: an accidental export change fails here.
// The main entry is what a host composes (at most 40 runtime names); the rest
// lives under a subpath named for its concept.
it("exports exactly these runtime names from the main entry, at most 40", () => {
  const names = Object.keys(api).sort();
  expect(names.length).toBeLessThanOrEqual(40);
  expect(names).toEqual(
    [
      "BridgeCapability",
      "CheckpointingCard",
      "DeckFault",
      "LiveBridge",
      "MemoryReadState",
      "ToolDeck",
      "appNovelCards",
      "attachBridgeCapabilities",
      "bridgeBoxToCapabilities",
      "bridgeCapabilityCard",
      "bridgeStatus",
      "bridgeToolCounts",
      "bridgeToolNames",
      "canonToolName",
      "chooseSearchBackend",
      "deckContext",
      "defineCard",
      "describeCapability",
      "detachBridge",
      "emptyBridgeLedger",
      "findRipgrep",
      "foldResult",
      "isDeckFault",
      "loadMcpCapabilities",
      "localToolContext",
      "maybeWrapCheckpoint",
      "planFilePath",
      "planSlug",
      "provisionDeck",
      "readPlan",
      "resolveMcpConfig",
      "resolveSearchEngine",
      "resultText",
      "searxngBackend",
      "selectTools",
      "writePlan",
    ].sort(),
  );
});

it.each([
  [
    "trust",
    [
      "EMPTY_PIN_BOOK",
      "MAX_DESCRIPTION_CHARS",
      "PinGate",
      "approvePins",
      "definitionLabel",
      "describePinChange",
      "findingText",
      "inspectDefinition",
      "parsePinBook",
      "pinnedDefinition",
      "serializePinBook",
      "visibleText",
      "withMissingPins",
    ],
  ],
  [
    "mcp-config",
    [
      "MCP_DIALECTS",
      "approvalStateFile",
      "approveProjectRows",
      "dialectOfFile",
      "loadManagedPolicy",
      "loadMcpConfig",
      "mcpConfigSearchPaths",
      "parseManagedPolicy",
      "parseMcpConfigText",
      "policyVerdict",
      "readPeerFile",
    ],
  ],
  [
    "catalog",
    [
      "MUTATING_PROFILES",
      "PROFILES",
      "READ_ONLY_PROFILES",
      "buildBuiltin",
      "buildBuiltinsForProfile",
      "builtinIds",
      "capabilityCards",
      "capabilityIds",
      "capabilityIndex",
      "cardProfiles",
      "cardsForProfile",
      "catalogMarkdown",
      "findCard",
      "hasCapability",
      "indexCapabilityCards",
      "isReadOnlyMembership",
      "withCatalogTable",
    ],
  ],
])("exports exactly these runtime names from @indus/deck/%s", async (subpath, expected) => {
  const entry = (await import(`@indus/deck/${subpath}`)) as Record<string, unknown>;
  expect(Object.keys(entry).sort()).toEqual([...expected].sort());
});

it("keeps tuning constants behind the NOT PUBLIC @indus/deck/internal subpath", async () => {
  const internal = await import("@indus/deck/internal");
  expect(Object.keys(internal).sort()).toEqual(
    [
      "BASH_LIMITS",
      "BG_CAPTURE_DIRNAME",
      "CATALOG_TABLE_END",
      "CATALOG_TABLE_START",
      "FETCH_LIMITS",
      "GREP_LIMITS",
      "MAX_BUFFERED_LINES",
      "PLANS_DIRNAME",
      "READ_LIMITS",
      "STOP_GRACE_MS",
      "TODO_GLYPHS",
      "TODO_STATES",
      "TODO_WEIGHTS",
    ].sort(),
  );
});
