/**
 * `todo_read` / `todo_set`: the session checklist the model keeps while it
 * works. One list per session (the deck box binds every call to one session);
 * `todo_set` replaces the list wholesale, `todo_read` shows it.
 */
import type { JsonValue } from "@indus/contract";
import type { Card } from "../vocabulary";
import { ArgError, inputObject, optArray } from "../args";
import { defineCard, objectSchema } from "../card";
import {
  CHECKLIST_PRIORITIES,
  CHECKLIST_STATUSES,
  type ChecklistItem,
  type ChecklistPriority,
  type ChecklistStatus,
} from "../checklist";
import { sessionOf } from "../session";

export { CHECKLIST_PRIORITIES, CHECKLIST_STATUSES } from "../checklist";
export type { ChecklistItem, ChecklistPriority, ChecklistStatus } from "../checklist";

const MAX_ITEMS = 100;
const MAX_CONTENT = 500;
const MARK: Record<ChecklistStatus, string> = {
  pending: "[ ]",
  in_progress: "[~]",
  completed: "[x]",
  cancelled: "[-]",
};

function parseItems(raw: unknown[]): ChecklistItem[] {
  if (raw.length > MAX_ITEMS) throw new ArgError(`at most ${MAX_ITEMS} items`);
  return raw.map((value, i) => {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new ArgError(`todos[${i}] must be an object`);
    const item = value as Record<string, unknown>;
    const content = item.content ?? item.text;
    if (typeof content !== "string" || content.trim() === "")
      throw new ArgError(`todos[${i}].content must be a non-empty string`);
    if (content.length > MAX_CONTENT)
      throw new ArgError(`todos[${i}].content is longer than ${MAX_CONTENT} characters`);
    const status = item.status ?? "pending";
    if (!(CHECKLIST_STATUSES as readonly unknown[]).includes(status)) {
      throw new ArgError(`todos[${i}].status must be one of ${CHECKLIST_STATUSES.join(", ")}`);
    }
    const priority = item.priority ?? "medium";
    if (!(CHECKLIST_PRIORITIES as readonly unknown[]).includes(priority)) {
      throw new ArgError(`todos[${i}].priority must be one of ${CHECKLIST_PRIORITIES.join(", ")}`);
    }
    const id =
      item.id === undefined
        ? String(i + 1)
        : typeof item.id === "string" || typeof item.id === "number"
          ? String(item.id)
          : JSON.stringify(item.id);
    return { id, content: content.trim(), status: status as ChecklistStatus, priority: priority as ChecklistPriority };
  });
}

export function renderChecklist(items: readonly ChecklistItem[]): string {
  if (items.length === 0) return "The checklist is empty.";
  const done = items.filter((i) => i.status === "completed").length;
  const lines = items.map((i) => `${MARK[i.status]} ${i.content}${i.priority === "high" ? " (high)" : ""}`);
  return [`Checklist (${done}/${items.length} done):`, ...lines].join("\n");
}

function asJson(items: readonly ChecklistItem[]): JsonValue {
  return items.map((i) => ({ id: i.id, content: i.content, status: i.status, priority: i.priority }));
}

export function todoReadTool(): Card {
  return defineCard({
    name: "todo_read",
    label: "Read checklist",
    readOnly: true,
    description: "Show the session checklist (the task list kept with todo_set).",
    parameters: objectSchema({}),
    async run(_input, ctx) {
      const items = sessionOf(ctx).checklist;
      return {
        content: [
          { type: "text", text: renderChecklist(items) },
          { type: "json", value: asJson(items) },
        ],
      };
    },
  });
}

export function todoSetTool(): Card {
  return defineCard({
    name: "todo_set",
    label: "Update checklist",
    readOnly: false,
    description:
      "Replace the session checklist with the given items. Use it to plan multi-step work and to track progress: keep exactly one item in_progress while working, mark items completed as soon as they are done, cancelled when dropped. Always send the complete list.",
    parameters: objectSchema(
      {
        todos: {
          type: "array",
          maxItems: MAX_ITEMS,
          items: {
            type: "object",
            properties: {
              id: { type: "string" },
              content: { type: "string", description: "What to do, in a short imperative sentence." },
              status: { type: "string", enum: [...CHECKLIST_STATUSES] },
              priority: { type: "string", enum: [...CHECKLIST_PRIORITIES] },
            },
            required: ["content", "status"],
            additionalProperties: false,
          },
        },
      },
      ["todos"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const raw = optArray(args, ["todos", "items"]);
      if (raw === undefined) throw new ArgError('"todos" is required');
      const items = parseItems(raw);
      sessionOf(ctx).checklist = items;
      return {
        content: [
          { type: "text", text: renderChecklist(items) },
          { type: "json", value: asJson(items) },
        ],
      };
    },
  });
}
