/**
 * A booted deck built from plain functions, for in-process tests of the
 * session loop (the subprocess tests use the real deck and real servers).
 */
import type { ToolDescriptor, ToolOutcome, ToolResult } from "@indus/contract";
import type { BootedDeck, ServerReport, ToolOrigin } from "../../../src/boot/boot-types";

export interface FakeTool {
  readonly name: string;
  readonly description?: string;
  readonly readOnly?: boolean;
  readonly parameters?: Record<string, unknown>;
  readonly origin?: ToolOrigin;
  run(input: unknown, signal: AbortSignal): Promise<ToolResult> | ToolResult;
}

export interface FakeDeck extends BootedDeck {
  /** Calls in the order they started. */
  readonly started: { name: string; input: unknown }[];
  closed: boolean;
}

export const text = (value: string, isError = false): ToolResult => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError } : {}),
});

export function fakeDeck(tools: readonly FakeTool[], servers: readonly ServerReport[] = []): FakeDeck {
  const disabled = new Set<string>();
  const started: { name: string; input: unknown }[] = [];
  const visible = () => tools.filter((t) => ![...disabled].some((id) => t.name.startsWith(`${id}__`)));
  const deck: FakeDeck = {
    started,
    closed: false,
    box: {
      descriptors: (): ToolDescriptor[] =>
        visible().map((t) => ({
          name: t.name,
          description: t.description ?? `The ${t.name} tool`,
          parameters: t.parameters ?? {
            type: "object",
            properties: {},
            additionalProperties: true,
          },
          annotations: { readOnlyHint: t.readOnly === true },
        })),
      runner: {
        async run(call, options): Promise<ToolOutcome> {
          const found = visible().find((t) => t.name === call.name);
          if (!found)
            return { callId: call.id, isError: true, content: [{ type: "text", text: `no tool ${call.name}` }] };
          started.push({ name: call.name, input: call.input });
          const result = await found.run(call.input, options?.signal ?? new AbortController().signal);
          return { ...result, callId: call.id, isError: result.isError === true };
        },
      },
    },
    origin: (name) => tools.find((t) => t.name === name)?.origin ?? (name.includes("__") ? "server" : "built-in"),
    servers,
    diagnostics: [],
    mcp: {
      servers: () => servers,
      reconnect: async (id) => servers.find((s) => s.id === id)!,
      setEnabled: (id, enabled) => {
        if (enabled) disabled.delete(id);
        else disabled.add(id);
      },
    },
    close: async () => {
      deck.closed = true;
    },
  };
  return deck;
}

/** A tool that resolves only when aborted (and reports it). */
export function waitsForAbort(name: string, seen: { aborted: boolean }): FakeTool {
  return {
    name,
    readOnly: false,
    run: (_input, signal) =>
      new Promise<ToolResult>((resolve) => {
        const done = () => {
          seen.aborted = true;
          resolve(text("cancelled", true));
        };
        if (signal.aborted) done();
        else signal.addEventListener("abort", done, { once: true });
      }),
  };
}
