/**
 * The `memory` app card: working-memory scratch notes. The injected
 * `MemoryStore` when there is one, otherwise an in-memory store owned by the
 * built capability.
 */
import type { Capability, CapabilityCard, DeckContext, MemoryStore } from "../vocabulary";
import { capabilityId } from "../vocabulary";
import { ArgError, inputObject, reqEnum, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { textResult } from "../results";

export const MEMORY_LIMITS = { maxChars: 256 * 1024 } as const;

export class InMemoryStore implements MemoryStore {
  private text = "";

  async read(): Promise<string> {
    return this.text;
  }

  async replace(text: string): Promise<void> {
    this.text = text;
  }

  async append(text: string): Promise<void> {
    this.text = this.text === "" ? text : `${this.text.replace(/\n?$/, "\n")}${text}`;
  }
}

const ACTIONS = ["read", "replace", "append"] as const;

export function buildMemoryCapability(deck: DeckContext): Capability {
  const store = deck.framework.memory ?? new InMemoryStore();
  return defineCard({
    name: "memory",
    label: "Working memory",
    readOnly: false,
    description:
      "Scratch notes that persist across turns: facts, decisions, open questions. action=read returns the notes; action=replace overwrites them with text; action=append adds text on a new line.",
    parameters: objectSchema(
      {
        action: { type: "string", enum: [...ACTIONS] },
        text: { type: "string", description: "replace/append: the text." },
      },
      ["action"],
    ),
    async run(input) {
      const args = inputObject(input);
      const action = reqEnum(args, "action", ACTIONS);
      if (action === "read") {
        const notes = await store.read();
        return textResult(notes === "" ? "(memory is empty)" : notes);
      }
      const text = reqString(args, ["text", "content"], { allowEmpty: action === "replace" });
      const current = action === "append" ? await store.read() : "";
      if (current.length + text.length > MEMORY_LIMITS.maxChars) {
        throw new ArgError(
          `memory would exceed ${MEMORY_LIMITS.maxChars} characters; replace it with a condensed version`,
        );
      }
      if (action === "replace") await store.replace(text);
      else await store.append(text);
      const after = await store.read();
      return textResult(
        `Memory ${action === "replace" ? "replaced" : "appended"}; it now holds ${after.length} characters.`,
      );
    },
  });
}

export function memoryCard(): CapabilityCard {
  return {
    id: capabilityId("memory"),
    title: "Working memory",
    summary: "read | replace | append scratch notes over the injected MemoryStore, in-memory by default.",
    profiles: ["all"],
    build: (ctx) => buildMemoryCapability(ctx),
  };
}
