/** The string and count keywords: `pattern`, `format`, `minLength`, `maxItems`, ... */
import type { SchemaNode } from "../node";
import { isCount } from "../read";
import type { BodyPlan } from "./plan";

/** Patterns longer than this are dropped unparsed (a widening). */
const MAX_PATTERN_LENGTH = 10_000;
/** `format` values longer than this are not formats. */
const MAX_FORMAT_LENGTH = 256;

const COUNT_KEYWORDS = new Set(["minProperties", "maxProperties", "minLength", "maxLength", "minItems", "maxItems"]);

function validPattern(value: unknown): value is string {
  if (typeof value !== "string" || value.length > MAX_PATTERN_LENGTH) return false;
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}

export function stringOrCountKeyword(key: string, value: unknown, plan: BodyPlan, out: SchemaNode): void {
  switch (key) {
    case "pattern":
      if (plan.applies(key) && validPattern(value)) out[key] = value;
      return;
    case "format":
      if (plan.applies(key) && typeof value === "string" && value.length > 0 && value.length <= MAX_FORMAT_LENGTH) {
        out[key] = value;
      }
      return;
    default:
      if (COUNT_KEYWORDS.has(key) && plan.applies(key) && isCount(value)) out[key] = value;
  }
}
