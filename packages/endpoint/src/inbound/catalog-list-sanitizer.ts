/**
 * Tolerant prompt and resource lists, as `tool-list-sanitizer` is for tools:
 * the SDK's 2026 codec checks a whole list result against the strict wire
 * schema, so one malformed entry would throw every prompt or resource of the
 * server away; in the 2025 era it would pass on to the gateway's clients. Each entry is checked on its own with the SDK's
 * own schema; a bad optional field is dropped (the entry kept), an entry still
 * invalid without it (no name, no URI) is dropped, each with an issue naming
 * the entry, the field and the value.
 */
import { PromptSchema, ResourceSchema, ResourceTemplateSchema } from "@modelcontextprotocol/core";
import { isRecord } from "@indus/contract";
import { shown } from "./modern-result-repair";

interface ItemSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

/** One list: the key of its entries, what an entry is called, the field naming it, and its schema. */
interface CatalogList {
  readonly key: string;
  readonly noun: string;
  readonly identity: string;
  readonly schema: ItemSchema;
}

const LISTS: Readonly<Record<string, CatalogList>> = {
  "prompts/list": { key: "prompts", noun: "prompt", identity: "name", schema: PromptSchema },
  "resources/list": { key: "resources", noun: "resource", identity: "uri", schema: ResourceSchema },
  "resources/templates/list": {
    key: "resourceTemplates",
    noun: "resource template",
    identity: "uriTemplate",
    schema: ResourceTemplateSchema,
  },
};

/** Fields an entry cannot do without: a bad one drops the entry rather than the field. */
const REQUIRED = new Set(["name", "uri", "uriTemplate"]);

/** At most this many bad fields are dropped from one entry before it is dropped whole. */
const MAX_FIELD_REPAIRS = 4;

function label(list: CatalogList, item: unknown): string {
  const id = isRecord(item) ? item[list.identity] : undefined;
  return typeof id === "string" ? `${list.noun} ${shown(id)}` : `a ${list.key} entry`;
}

/** The entry as the schema accepts it (bad optional fields dropped), or undefined; the issues either way. */
function checkItem(list: CatalogList, item: unknown): { item?: unknown; issues: string[] } {
  const name = label(list, item);
  const issues: string[] = [];
  let current = item;
  for (let repairs = 0; ; repairs++) {
    const check = list.schema.safeParse(current);
    if (check.success) return { item: current, issues };
    const issue = check.error?.issues[0];
    const field = issue?.path[0];
    const why = issue ? `${issue.path.map(String).join(".") || "(entry)"}: ${issue.message}` : "invalid";
    const droppable = isRecord(current) && typeof field === "string" && !REQUIRED.has(field) && field in current;
    if (!droppable || repairs >= MAX_FIELD_REPAIRS) {
      return { issues: [...issues, `${name} dropped: it does not match the MCP ${list.noun} schema (${why})`] };
    }
    const record = current as Record<string, unknown>;
    issues.push(`${name}: field ${field} ${shown(record[field])} dropped (${why})`);
    const { [field]: _dropped, ...rest } = record;
    current = rest;
  }
}

/** The entries of one prompt or resource list as the wire schema accepts them, and an issue for each change. */
export function keepValidCatalogEntries(
  method: string,
  result: Record<string, unknown>,
): { result: Record<string, unknown>; issues: string[] } {
  const list = LISTS[method];
  const items = list === undefined ? undefined : result[list.key];
  if (list === undefined || !Array.isArray(items)) return { result, issues: [] };
  const issues: string[] = [];
  const kept: unknown[] = [];
  for (const item of items as unknown[]) {
    const checked = checkItem(list, item);
    issues.push(...checked.issues);
    if (checked.item !== undefined) kept.push(checked.item);
  }
  return issues.length === 0 ? { result, issues } : { result: { ...result, [list.key]: kept }, issues };
}
