/** The general keywords: `type`, the annotations and the data values (`enum`, `const`). */
import type { BodyPlan, Emitted } from "./plan";

export function generalKeyword(key: string, value: unknown, plan: BodyPlan, emitted: Emitted): boolean {
  const { out } = emitted;
  switch (key) {
    case "type":
      if (plan.type === undefined) return true;
      out.type = plan.type;
      if (plan.type === "object" && plan.properties === undefined) out.properties = {};
      if (plan.type === "array" && plan.items === undefined) {
        out.items = {};
        emitted.items = true;
      }
      return true;
    case "title":
    case "description":
      if (plan.withAnnotations && typeof value === "string") out[key] = value;
      return true;
    case "enum":
    case "const":
      if (plan.values && !emitted.values) out.enum = plan.values;
      emitted.values = true;
      return true;
    default:
      return false;
  }
}
