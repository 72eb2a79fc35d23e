/** The numeric keywords: bounds and `multipleOf`. */
import type { SchemaNode } from "../node";
import { isFiniteNumber, plainNumber } from "../read";
import type { BodyPlan } from "./plan";

export function numericKeyword(key: string, value: unknown, plan: BodyPlan, out: SchemaNode): boolean {
  switch (key) {
    case "minimum":
    case "maximum":
      if (!plan.applies(key) || !isFiniteNumber(value)) return true;
      // Draft-04 spells an exclusive bound as a boolean beside the number.
      if (plan.record[key === "minimum" ? "exclusiveMinimum" : "exclusiveMaximum"] === true) {
        out[key === "minimum" ? "exclusiveMinimum" : "exclusiveMaximum"] = plainNumber(value);
      } else {
        out[key] = plainNumber(value);
      }
      return true;
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      if (plan.applies(key) && isFiniteNumber(value)) out[key] = plainNumber(value);
      return true;
    case "multipleOf":
      if (plan.applies(key) && isFiniteNumber(value) && value > 0) out[key] = value;
      return true;
    default:
      return false;
  }
}
