/**
 * The `todo` app card: a checklist owned by the built capability (two decks
 * never share one), distinct from the session `todo_read`/`todo_set`
 * built-ins. `set` replaces the list wholesale; items carry a state and a weight.
 */
import type { JsonValue } from "@indus/contract";
import type { Capability, CapabilityCard } from "../vocabulary";
import { capabilityId } from "../vocabulary";
import { ArgError, inputObject, optArray, reqEnum } from "../args";
import { defineCard, objectSchema } from "../card";

export const TODO_STATES = ["pending", "active", "done", "dropped"] as const;
export type TodoState = (typeof TODO_STATES)[number];
export const TODO_WEIGHTS = ["low", "normal", "high"] as const;
export type TodoWeight = (typeof TODO_WEIGHTS)[number];
export const TODO_GLYPHS: Readonly<Record<TodoState, string>> = Object.freeze({
  pending: "[ ]",
  active: "[~]",
  done: "[x]",
  dropped: "[-]",
});
export const TODO_LIMITS = { maxItems: 100, maxTextChars: 500 } as const;

export interface TodoItem {
  readonly text: string;
  readonly state: TodoState;
  readonly weight: TodoWeight;
}

/** The card's store: one list per built capability. */
export class TodoLedger {
  private items: readonly TodoItem[] = [];

  read(): readonly TodoItem[] {
    return this.items;
  }

  set(items: readonly TodoItem[]): void {
    this.items = Object.freeze([...items]);
  }
}

export function renderTodos(items: readonly TodoItem[]): string {
  if (items.length === 0) return "No todos.";
  return items
    .map((item) => `${TODO_GLYPHS[item.state]} ${item.text}${item.weight === "normal" ? "" : ` (${item.weight})`}`)
    .join("\n");
}

function parseTodo(value: unknown, i: number): TodoItem {
  if (typeof value === "string") value = { text: value };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ArgError(`items[${i}] must be an object`);
  const item = value as Record<string, unknown>;
  const text = item.text ?? item.content;
  if (typeof text !== "string" || text.trim() === "") throw new ArgError(`items[${i}].text must be a non-empty string`);
  if (text.length > TODO_LIMITS.maxTextChars)
    throw new ArgError(`items[${i}].text is longer than ${TODO_LIMITS.maxTextChars} characters`);
  const state = item.state ?? "pending";
  if (!(TODO_STATES as readonly unknown[]).includes(state))
    throw new ArgError(`items[${i}].state must be one of ${TODO_STATES.join(", ")}`);
  const weight = item.weight ?? "normal";
  if (!(TODO_WEIGHTS as readonly unknown[]).includes(weight))
    throw new ArgError(`items[${i}].weight must be one of ${TODO_WEIGHTS.join(", ")}`);
  return { text: text.trim(), state: state as TodoState, weight: weight as TodoWeight };
}

function todoResult(items: readonly TodoItem[]) {
  const value: JsonValue = items.map((i) => ({ text: i.text, state: i.state, weight: i.weight }));
  return {
    content: [
      { type: "text" as const, text: renderTodos(items) },
      { type: "json" as const, value },
    ],
  };
}

export function buildTodoCapability(ledger = new TodoLedger()): Capability {
  return defineCard({
    name: "todo",
    label: "Todo list",
    readOnly: false,
    description:
      "Keep a todo list for the current work. action=read shows it; action=set replaces it with items [{text, state, weight}], state pending | active | done | dropped, weight low | normal | high. Rendered with [ ] pending, [~] active, [x] done, [-] dropped.",
    parameters: objectSchema(
      {
        action: { type: "string", enum: ["read", "set"] },
        items: {
          type: "array",
          maxItems: TODO_LIMITS.maxItems,
          items: {
            type: "object",
            properties: {
              text: { type: "string" },
              state: { type: "string", enum: [...TODO_STATES] },
              weight: { type: "string", enum: [...TODO_WEIGHTS] },
            },
            required: ["text"],
            additionalProperties: false,
          },
          description: "set: the complete new list.",
        },
      },
      ["action"],
    ),
    async run(input) {
      const args = inputObject(input);
      const action = reqEnum(args, "action", ["read", "set"] as const);
      if (action === "read") return todoResult(ledger.read());
      const raw = optArray(args, ["items", "todos"]);
      if (raw === undefined) throw new ArgError('"items" is required for action "set"');
      if (raw.length > TODO_LIMITS.maxItems) throw new ArgError(`at most ${TODO_LIMITS.maxItems} items`);
      ledger.set(raw.map(parseTodo));
      return todoResult(ledger.read());
    },
  });
}

export function todoCard(): CapabilityCard {
  return {
    id: capabilityId("todo"),
    title: "Todo list",
    summary: "A card-owned checklist: read | set; states pending/active/done/dropped, weights low/normal/high.",
    profiles: ["all"],
    build: () => buildTodoCapability(),
  };
}
