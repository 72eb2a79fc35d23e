import { protocolFault } from "@indus/contract";

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit at every level,
 * arrays in their own order (order is meaning there), no whitespace. Two
 * schemas that differ only in key order serialise to the same text.
 *
 * Values follow `JSON.stringify` (`toJSON` honoured; `undefined`, functions
 * and symbols dropped from objects and `null` in arrays; non-finite numbers
 * `null`), except that a bigint is written as its digits instead of throwing.
 * Recursion stops at depth 256 and an iterative writer takes over, so a
 * 100,000-deep schema cannot overflow the stack. A cycle is not JSON: it
 * raises a `protocol` fault naming where it closes.
 */
export function canonicalJson(value: unknown): string {
  // Ordinary schemas take the recursive path (faster); a deep or cyclic
  // value bails out of it and is redone by the iterative writer.
  try {
    return writeShallow(resolveJson(value), 0);
  } catch (err) {
    if (err !== TOO_DEEP) throw err;
    return writeIterative(value);
  }
}

/** Depth the recursive writer goes to before handing over to the iterative one. */
const MAX_RECURSION = 256;
/** Thrown (this one instance) when the recursive writer reaches MAX_RECURSION. */
const TOO_DEEP = new Error("too deep for the recursive writer");

/** `v` has had `toJSON` applied already. */
function writeShallow(v: unknown, depth: number): string {
  if (v === null || v === undefined || typeof v === "function" || typeof v === "symbol") return "null";
  if (typeof v === "string" || typeof v === "boolean") return JSON.stringify(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
  if (typeof v === "bigint") return v.toString();
  const node = v;
  // A cycle also ends up here, and the iterative writer reports it properly.
  if (depth >= MAX_RECURSION) throw TOO_DEEP;
  let text: string;
  if (Array.isArray(node)) {
    text = "[";
    for (let i = 0; i < node.length; i++) text += (i > 0 ? "," : "") + writeShallow(resolveJson(node[i]), depth + 1);
    text += "]";
  } else {
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record).sort(); // default order: UTF-16 code units
    text = "{";
    let first = true;
    for (const k of keys) {
      const member = resolveJson(record[k]);
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      text += `${first ? "" : ","}${JSON.stringify(k)}:${writeShallow(member, depth + 1)}`;
      first = false;
    }
    text += "}";
  }
  return text;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function writeIterative(value: unknown): string {
  const out: string[] = [];
  const tasks: Task[] = [{ t: WRITE, value: resolveJson(value), at: undefined }];
  const open = new Set<object>();

  while (tasks.length > 0) {
    const task = tasks.pop() as Task;
    if (task.t === EMIT) out.push(task.text);
    else if (task.t === LEAVE) open.delete(task.node);
    else {
      const scalar = scalarText(task.value);
      if (scalar !== undefined) out.push(scalar);
      else enter(task.value as object, task.at, { tasks, open });
    }
  }
  return out.join("");
}

/** A scalar's text; undefined for an object or array. */
function scalarText(v: unknown): string | undefined {
  // null also stands for members JSON drops: reached only inside arrays or at the top (objects skip them).
  if (v === null || v === undefined || typeof v === "function" || typeof v === "symbol") return "null";
  if (typeof v === "string" || typeof v === "boolean") return JSON.stringify(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
  if (typeof v === "bigint") return v.toString();
  return undefined;
}

/** Schedule an object or array: its closing text, its members in reverse, its opening text. */
function enter(node: object, at: PathLink | undefined, walk: { tasks: Task[]; open: Set<object> }): void {
  const { tasks, open } = walk;
  if (open.has(node)) {
    throw protocolFault(
      "protocol",
      `cannot take the content key of a cyclic value (the cycle closes at ${pathText(at)})`,
    );
  }
  open.add(node);
  tasks.push({ t: LEAVE, node });
  if (Array.isArray(node)) {
    tasks.push({ t: EMIT, text: "]" });
    for (let i = node.length - 1; i >= 0; i--) {
      tasks.push({ t: WRITE, value: resolveJson(node[i]), at: { up: at, step: i } });
      if (i > 0) tasks.push({ t: EMIT, text: "," });
    }
    tasks.push({ t: EMIT, text: "[" });
    return;
  }
  const members = sortedMembers(node as Record<string, unknown>);
  tasks.push({ t: EMIT, text: "}" });
  for (let i = members.length - 1; i >= 0; i--) {
    const [k, member] = members[i] as [string, unknown];
    tasks.push({ t: WRITE, value: member, at: { up: at, step: k } });
    tasks.push({ t: EMIT, text: `${i > 0 ? "," : ""}${JSON.stringify(k)}:` });
  }
  tasks.push({ t: EMIT, text: "{" });
}

/** An object's members JSON keeps, in code-unit order of their keys. */
function sortedMembers(record: Record<string, unknown>): [string, unknown][] {
  const members: [string, unknown][] = [];
  for (const k of Object.keys(record)) {
    const member = resolveJson(record[k]);
    if (member !== undefined && typeof member !== "function" && typeof member !== "symbol") members.push([k, member]);
  }
  return members.sort((a, b) => byCodeUnit(a[0], b[0]));
}

const WRITE = 0;
const EMIT = 1;
const LEAVE = 2;

/** A path as a linked list: building it costs O(1) per node, text only on error. */
interface PathLink {
  readonly up: PathLink | undefined;
  readonly step: string | number;
}

type Task =
  | { readonly t: typeof WRITE; readonly value: unknown; readonly at: PathLink | undefined }
  | { readonly t: typeof EMIT; readonly text: string }
  | { readonly t: typeof LEAVE; readonly node: object };

function resolveJson(value: unknown): unknown {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

function pathText(link: PathLink | undefined): string {
  const steps: string[] = [];
  for (let l = link; l; l = l.up) steps.push(typeof l.step === "number" ? `[${l.step}]` : `.${l.step}`);
  return `$${steps.reverse().join("")}`;
}
