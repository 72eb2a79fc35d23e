/** The combinators: `anyOf` / `oneOf` (one union) and `allOf` (conjuncts merged at the end). */
import { anyOfOf } from "../merge";
import { isPermissive } from "../node";
import { elementsUpTo, isArray } from "../read";
import type { BodyPlan, Emitted } from "./plan";

export function combinatorKeyword(key: string, value: unknown, plan: BodyPlan, emitted: Emitted): boolean {
  switch (key) {
    case "anyOf":
    case "oneOf": {
      // oneOf widens to anyOf: providers that take one take the other, and
      // exclusivity is the server's to check. A second combinator is dropped.
      if (emitted.anyOf || !isArray(value)) return true;
      emitted.anyOf = true;
      const branches = plan.walk.schemaList(value);
      if (branches === undefined) return true; // more branches than budget: no constraint
      const union = anyOfOf(branches.map((branch) => plan.walk.node(branch, plan.depth + 1)));
      if (Array.isArray(union.anyOf)) emitted.out.anyOf = union.anyOf;
      else if (!isPermissive(union)) emitted.pending.push(union);
      return true;
    }
    case "allOf":
      // Ignoring conjuncts past the budget widens: fine.
      if (isArray(value)) {
        const { elements } = elementsUpTo(value, plan.walk.remaining());
        for (const branch of elements) emitted.pending.push(plan.walk.node(branch, plan.depth + 1));
      }
      return true;
    default:
      return false;
  }
}
