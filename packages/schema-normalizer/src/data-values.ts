/**
 * `enum` and `const` as plain JSON values. Values no JSON argument can equal
 * (functions, NaN, Dates, cycles) are dropped; when the list is too big to
 * copy within budget the constraint is dropped instead (a widening).
 */
import { valueHasType, type JsonType } from "./keywords";
import { canonicalKey } from "./node";
import { TOO_BIG, UNREPRESENTABLE, copyJsonValue, elementsUpTo, isArray, type Snapshot } from "./read";

/** Nodes of budget the copies may still spend (decremented as they copy). */
export interface CopyBudget {
  remaining: number;
}

/** The node's data values, filtered to `type`; undefined when they constrain nothing. */
export function copyDataValues(
  record: Snapshot,
  type: JsonType | undefined,
  budget: CopyBudget,
  maxDepth: number,
): unknown[] | undefined {
  const copy = (value: unknown) => copyJsonValue(value, maxDepth, budget);
  let values: unknown[] | undefined;
  if (isArray(record.enum)) {
    values = enumValues(record.enum, copy, budget);
    if (values === undefined) return undefined;
  }
  if (record.const !== undefined) values = withConst(values, copy(record.const));
  if (values && type) {
    values = values.filter((value) => valueHasType(value, type));
    // An enum listing every value of its type says nothing the type does not.
    if (type === "null" || (type === "boolean" && values.length === 2)) return undefined;
  }
  return values && values.length > 0 ? values : undefined;
}

/** The distinct representable values of `enum`; undefined when they do not fit the budget. */
function enumValues(
  list: readonly unknown[],
  copy: (value: unknown) => unknown,
  budget: CopyBudget,
): unknown[] | undefined {
  const values: unknown[] = [];
  const seen = new Set<string>();
  const { elements, complete } = elementsUpTo(list, budget.remaining + 1);
  if (!complete) return undefined;
  for (const element of elements) {
    const copied = copy(element);
    if (copied === TOO_BIG) return undefined;
    if (copied === UNREPRESENTABLE) continue;
    const key = canonicalKey(copied);
    if (!seen.has(key)) {
      seen.add(key);
      values.push(copied);
    }
  }
  return values;
}

/** `const` beside `enum`: the enum's matching value, or the const alone. */
function withConst(values: unknown[] | undefined, copied: unknown): unknown[] | undefined {
  if (copied === TOO_BIG || copied === UNREPRESENTABLE) return values;
  const key = canonicalKey(copied);
  const both = values?.filter((value) => canonicalKey(value) === key);
  return both && both.length > 0 ? both : [copied];
}
