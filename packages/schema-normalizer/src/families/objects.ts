/** The object keywords: `properties`, `required`, `additionalProperties`. */
import { isRecordLike, type Snapshot } from "../read";
import type { BodyPlan, Emitted } from "./plan";

function hasPatternProperties(node: Snapshot): boolean {
  const value = node.patternProperties;
  if (!isRecordLike(value)) return false;
  try {
    return Object.keys(value).length > 0;
  } catch {
    return true;
  }
}

export function objectKeyword(key: string, value: unknown, plan: BodyPlan, emitted: Emitted): boolean {
  const { out } = emitted;
  switch (key) {
    case "properties":
      if (plan.properties) out.properties = plan.properties;
      return true;
    case "required":
      if (plan.required) out.required = plan.required;
      return true;
    case "additionalProperties":
      // Dropping patternProperties would otherwise reject keys it allowed.
      if (!plan.applies(key) || plan.propertiesCut || hasPatternProperties(plan.record)) return true;
      if (typeof value === "boolean") out[key] = value;
      else if (isRecordLike(value)) out[key] = plan.walk.node(value, plan.depth + 1);
      return true;
    default:
      return false;
  }
}
