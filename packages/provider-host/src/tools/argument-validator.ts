/**
 * Checks `tools/call` arguments against the tool's own JSON Schema before the
 * box runs it. A failure becomes a tool execution error (`isError: true`)
 * naming the failing path, as MCP 2025-06-18+ asks, so the model can correct
 * its call instead of the client seeing a protocol error.
 *
 * Schemas are untrusted and of mixed drafts: the dialect is picked from
 * `$schema` (2020-12 when absent, as MCP says), formats are not asserted (the
 * tool itself is the judge of those), and a schema Ajv cannot compile is not
 * enforced at all rather than blocking the tool.
 *
 * Ajv is imported on the first check of a schema in its dialect, not with
 * the host: a gateway answers its first handshake without compiling Ajv
 * (~270 KB), and one that only republishes mounted tools never loads it.
 */
import type Ajv from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { JsonSchema, ToolDescriptor } from "@indus/contract";

export type ArgumentCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

const OK: ArgumentCheck = { ok: true };
/** Compiled validators kept per distinct schema text; oldest evicted first. */
const CACHE_LIMIT = 512;
/** At most this many individual failures are spelled out in the message. */
const MAX_REPORTED_ERRORS = 5;

type Dialect = "draft-07" | "2019-09" | "2020-12";
type Compiled = ValidateFunction | null;

const ENGINE_OPTIONS = {
  strict: false,
  allErrors: true,
  validateFormats: false,
  validateSchema: false,
  addUsedSchema: false,
} as const;

/** Each dialect's Ajv, its module imported when a schema in it is first checked. */
const ENGINES: Record<Dialect, () => Promise<Ajv>> = {
  "draft-07": async () => new (await import("ajv")).default(ENGINE_OPTIONS),
  "2019-09": async () => new (await import("ajv/dist/2019.js")).default(ENGINE_OPTIONS),
  "2020-12": async () => new (await import("ajv/dist/2020.js")).default(ENGINE_OPTIONS),
};

export class ArgumentValidator {
  private readonly engines = new Map<Dialect, Promise<Ajv>>();
  private readonly byText = new Map<string, Compiled>();
  private readonly bySchema = new WeakMap<JsonSchema, Compiled>();

  async check(descriptor: ToolDescriptor, input: unknown): Promise<ArgumentCheck> {
    const known = this.bySchema.get(descriptor.parameters);
    const validate = known !== undefined ? known : await this.validatorFor(descriptor.parameters);
    if (validate === null) return OK;
    if (validate(input)) return OK;
    return { ok: false, message: describeFailure(descriptor.name, validate.errors ?? []) };
  }

  private async validatorFor(schema: JsonSchema): Promise<Compiled> {
    let text: string;
    try {
      text = JSON.stringify(schema);
    } catch {
      return null;
    }
    let compiled = this.byText.get(text);
    if (compiled === undefined) {
      compiled = await this.compile(schema);
      this.byText.set(text, compiled);
      if (this.byText.size > CACHE_LIMIT) {
        const oldest = this.byText.keys().next().value as string;
        this.byText.delete(oldest);
      }
    }
    this.bySchema.set(schema, compiled);
    return compiled;
  }

  private async compile(schema: JsonSchema): Promise<Compiled> {
    // A root `$id` would register the schema globally in Ajv and clash with
    // another tool reusing the same id; validation never needs it.
    const { $id: _ignored, ...local } = schema;
    const engine = await this.engine(dialectOf(schema));
    try {
      const validate = engine.compile(local);
      // Ajv also caches by schema object; the text cache above is the one bound.
      engine.removeSchema(local);
      return validate;
    } catch {
      return null;
    }
  }

  /** One engine per dialect, however many checks wait for its import at once. */
  private engine(dialect: Dialect): Promise<Ajv> {
    let engine = this.engines.get(dialect);
    if (engine === undefined) {
      engine = ENGINES[dialect]();
      this.engines.set(dialect, engine);
    }
    return engine;
  }
}

function dialectOf(schema: JsonSchema): Dialect {
  const declared = schema.$schema;
  if (typeof declared !== "string") return "2020-12";
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("2019-09")) return "2019-09";
  if (/draft-0[4-7]/.test(declared)) return "draft-07";
  return "2020-12";
}

function describeFailure(tool: string, errors: readonly ErrorObject[]): string {
  const lines = errors.slice(0, MAX_REPORTED_ERRORS).map((error) => {
    const path = error.instancePath === "" ? "/" : error.instancePath;
    const missing = (error.params as { missingProperty?: unknown }).missingProperty;
    const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
    const detail =
      typeof missing === "string"
        ? `must have required property '${missing}'`
        : typeof extra === "string"
          ? `must not have additional property '${extra}'`
          : (error.message ?? "is invalid");
    return `at ${path}: ${detail}`;
  });
  const more = errors.length > MAX_REPORTED_ERRORS ? ` (and ${errors.length - MAX_REPORTED_ERRORS} more)` : "";
  return `Invalid arguments for tool '${tool}': ${lines.join("; ")}${more}`;
}
