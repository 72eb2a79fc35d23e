import * as api from "@indus/schema-normalizer";

// Pins the public runtime surface: an accidental export change fails here.
it("exports exactly these runtime names", () => {
  expect(Object.keys(api).sort()).toEqual(
    ["NORMALIZE_DEFAULTS", "NORMALIZE_TARGETS", "STRIPPED_KEYWORDS", "normalizeSchema"].sort(),
  );
});

it("exposes frozen defaults and the target list", () => {
  expect(api.NORMALIZE_DEFAULTS).toEqual({ target: "portable", maxDepth: 32, maxNodes: 10_000, maxRecursion: 2 });
  expect(Object.isFrozen(api.NORMALIZE_DEFAULTS)).toBe(true);
  expect(Object.isFrozen(api.STRIPPED_KEYWORDS)).toBe(true);
  expect(api.NORMALIZE_TARGETS).toEqual(["portable", "openai", "anthropic", "gemini"]);
});
