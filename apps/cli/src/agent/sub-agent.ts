/**
 * The `task` card's runner: a nested agent session with its own context
 * (briefing, conversation, transcript) on the same provider, or the model
 * `--subagent-model` names. The `explore` agent (the default) gets only the
 * read-only tools; `general` also gets the mutating ones, each call through
 * the parent's permission gate. Neither gets `task` (depth 1). The parent's
 * call signal cancels it; its final answer and a usage line are the result.
 *
 * The deck is provisioned before any session exists, so the runner is
 * created empty and bound to the parent's session settings once they are.
 */
import type { ToolBox, ToolDescriptor } from "@indus/contract";
import type { DelegateAnswer, DelegateRequest, DelegateRunner } from "@indus/deck";
import type { EventSink } from "./events";
import type { PermissionGate } from "./session/permission";
import { AgentSession, type SessionDeck, type SessionOptions } from "./session/session";
import { SUB_AGENTS } from "./sub-agent-roster";

/** What the runner needs from the parent session. */
export interface SubAgentParent {
  readonly options: Omit<
    SessionOptions,
    "emit" | "gate" | "deck" | "sessionId" | "role" | "approvePlan" | "autoApprovePlans" | "checkpoints"
  >;
  readonly deck: SessionDeck;
  readonly gate: PermissionGate;
  /** The parent's event sink, for compact progress lines. */
  readonly emit: EventSink;
  readonly parentId: string;
}

/** The parent's box with only the tools `keep` admits (calls to any other are refused). */
export function restrictedBox(box: ToolBox, keep: (descriptor: ToolDescriptor) => boolean): ToolBox {
  const allowed = () => box.descriptors().filter(keep);
  return {
    descriptors: allowed,
    runner: {
      run: (call, options) =>
        allowed().some((d) => d.name === call.name)
          ? box.runner.run(call, options)
          : Promise.resolve({
              callId: call.id,
              isError: true,
              content: [{ type: "text", text: `${call.name} is not available to this sub-agent` }],
            }),
    },
  };
}

function usageLine(session: AgentSession, transcript: string): string {
  const { turns, usage } = session.summary();
  return `[sub-agent: ${turns} turn${turns === 1 ? "" : "s"} · ${usage.inputTokens} in / ${usage.outputTokens} out tokens · transcript ${transcript}]`;
}

export class SubAgentRunner implements DelegateRunner {
  private parent: SubAgentParent | undefined;
  private count = 0;

  bind(parent: SubAgentParent): void {
    this.parent = parent;
  }

  listAgents(): readonly { readonly name: string; readonly description: string }[] {
    return SUB_AGENTS;
  }

  async run(request: DelegateRequest, signal: AbortSignal): Promise<DelegateAnswer> {
    const parent = this.parent;
    if (!parent) return { ok: false, output: "No session is running to start a sub-agent from." };
    const agent = request.agent ?? "explore";
    const writable = agent === "general";
    const deck: SessionDeck = {
      ...parent.deck,
      box: restrictedBox(
        parent.deck.box,
        (d) => d.name !== "task" && (writable || d.annotations?.readOnlyHint === true),
      ),
    };
    this.count += 1;
    const session = new AgentSession({
      ...parent.options,
      deck,
      gate: parent.gate,
      role: "sub-agent",
      sessionId: `${parent.parentId}-task${this.count}`,
      // A sub-agent cannot ask the user to approve a plan.
      autoApprovePlans: false,
      emit: (event) => {
        if (event.type === "tool_call")
          parent.emit({ type: "subagent_call", agent, name: event.name, input: event.input });
      },
    });
    try {
      session.start();
      const prompt = request.context ? `${request.objective}\n\nContext:\n${request.context}` : request.objective;
      const result = await session.run(prompt, signal);
      const usage = usageLine(session, session.transcript.file);
      if (result.subtype === "success") return { ok: true, output: `${result.text}\n\n${usage}` };
      return {
        ok: false,
        output: `The sub-agent stopped: ${result.error ?? result.subtype}.\n${result.text}\n\n${usage}`.trim(),
      };
    } finally {
      session.close();
    }
  }
}
