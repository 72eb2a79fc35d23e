/**
 * The real-schema checks: every schema in the committed corpus (tools/list of
 * server-everything, server-filesystem, server-memory and an SDK+zod server)
 * plus the synthetic zod-style schemas, normalized for every target, must
 * compile in ajv strict mode, and every argument the original accepts must
 * still be accepted.
 */
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import fc from "fast-check";
import { NORMALIZE_TARGETS, normalizeSchema, type NormalizeTarget } from "@indus/schema-normalizer";
import { SAMPLES } from "./fixtures/samples";
import { generate } from "./support/arbitrary";
import { corpusCases, corpusFiles, syntheticCases, type CorpusCase } from "./support/corpus";

jest.setTimeout(120_000);

const CASES = [...corpusCases(), ...syntheticCases()];
const TARGETS: readonly NormalizeTarget[] = NORMALIZE_TARGETS;

const loose = { strict: false, validateFormats: false, logger: false } as const;
const strict = { strict: true, validateFormats: false } as const;
const original07 = new Ajv(loose);
const original2020 = new Ajv2020(loose);
const strict07 = new Ajv(strict);
const strict2020 = new Ajv2020(strict);

const validators = new Map<object, (value: unknown) => boolean>();
function originalValidator(entry: CorpusCase): (value: unknown) => boolean {
  let validate = validators.get(entry.schema);
  if (!validate) {
    const compiled = (entry.dialect === "2020" ? original2020 : original07).compile(entry.schema);
    validate = (value) => compiled(value);
    validators.set(entry.schema, validate);
  }
  return validate;
}

function normalizedValidators(entry: CorpusCase, target: NormalizeTarget) {
  const normalized = normalizeSchema(entry.schema, { target });
  const draft07 = strict07.compile(normalized);
  const draft2020 = strict2020.compile(normalized);
  return { normalized, accepts: (value: unknown) => draft07(value) === true && draft2020(value) === true };
}

it("the corpus holds the three npm servers and the SDK+zod server", () => {
  const files = corpusFiles();
  expect(files.map((file) => file.id)).toEqual(["everything", "filesystem", "memory", "sdk-zod"]);
  for (const { file } of files) expect(file.tools.length).toBeGreaterThan(5);
  expect(CASES.length).toBeGreaterThan(80);
});

describe.each(TARGETS)("target %s", (target) => {
  it.each(CASES.map((entry) => [entry.label, entry] as const))(
    "%s compiles in ajv strict mode (draft-07 and 2020-12)",
    (_label, entry) => {
      expect(() => normalizedValidators(entry, target)).not.toThrow();
    },
  );
});

describe.each(TARGETS)("target %s keeps every hand-picked argument valid", (target) => {
  const withSamples = CASES.filter((entry) => entry.kind === "input" && SAMPLES[entry.label]);
  it.each(withSamples.map((entry) => [entry.label, entry] as const))("%s", (label, entry) => {
    const { accepts } = normalizedValidators(entry, target);
    for (const sample of SAMPLES[label]!) {
      expect({ label, sample, original: originalValidator(entry)(sample) }).toEqual({ label, sample, original: true });
      expect({ label, sample, normalized: accepts(sample) }).toEqual({ label, sample, normalized: true });
    }
  });
});

it("every corpus tool has hand-picked samples", () => {
  const missing = corpusCases()
    .filter((entry) => entry.kind === "input" && !SAMPLES[entry.label])
    .map((entry) => entry.label);
  expect(missing).toEqual([]);
});

describe.each(["portable", "gemini"] as const)(
  "target %s: generated arguments valid under the original stay valid",
  (target) => {
    it.each(CASES.map((entry) => [entry.label, entry] as const))("%s", (label, entry) => {
      const original = originalValidator(entry);
      const { normalized, accepts } = normalizedValidators(entry, target);
      let checked = 0;
      fc.assert(
        fc.property(generate(entry.schema, entry.schema), (value) => {
          fc.pre(original(value));
          checked++;
          if (!accepts(value)) {
            throw new Error(`${label}: ${JSON.stringify(value)} rejected by ${JSON.stringify(normalized)}`);
          }
        }),
        { numRuns: 60, seed: 42, maxSkipsPerRun: 1000 },
      );
      expect(checked).toBeGreaterThan(0);
    });
  },
);

it("openai and anthropic currently emit exactly the portable form", () => {
  for (const entry of CASES) {
    const portable = normalizeSchema(entry.schema);
    expect(normalizeSchema(entry.schema, { target: "openai" })).toEqual(portable);
    expect(normalizeSchema(entry.schema, { target: "anthropic" })).toEqual(portable);
  }
});
