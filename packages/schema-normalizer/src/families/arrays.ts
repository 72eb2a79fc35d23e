/** The array keywords: `items` / `prefixItems` / `additionalItems` (one collapsed `items`), `uniqueItems`. */
import type { BodyPlan, Emitted } from "./plan";

export function arrayKeyword(key: string, value: unknown, plan: BodyPlan, emitted: Emitted): boolean {
  switch (key) {
    case "items":
    case "prefixItems":
    case "additionalItems":
      if (plan.items !== undefined && !emitted.items) emitted.out.items = plan.items;
      emitted.items = plan.items !== undefined;
      return true;
    case "uniqueItems":
      if (plan.applies(key) && typeof value === "boolean") emitted.out[key] = value;
      return true;
    default:
      return false;
  }
}
