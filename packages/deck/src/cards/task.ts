/**
 * The `task` app card: hand an objective to a sub-agent through the injected
 * `DelegateRunner`; the runner's roster is listed in the description. Without
 * a runner the card still builds and answers with a typed stub.
 */
import type { Capability, CapabilityCard, DeckContext, DelegateRunner } from "../vocabulary";
import { capabilityId } from "../vocabulary";
import { ArgError, inputObject, optString, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { unavailableResult } from "./unavailable";

export const TASK_LIMITS = { maxObjectiveChars: 20_000, maxContextChars: 100_000 } as const;

function roster(runner: DelegateRunner | undefined): readonly { name: string; description: string }[] {
  try {
    return runner?.listAgents() ?? [];
  } catch {
    return [];
  }
}

export function buildTaskCapability(deck: DeckContext): Capability {
  const runner = deck.framework.delegate;
  const agents = roster(runner);
  const agentList =
    agents.length > 0 ? `\nAvailable agents:\n${agents.map((a) => `- ${a.name}: ${a.description}`).join("\n")}` : "";
  return defineCard({
    name: "task",
    label: "Delegate to sub-agent",
    readOnly: false,
    description: `Delegate a self-contained objective to a sub-agent and return its final answer. Give a complete objective (the sub-agent does not see this conversation) and any context it needs.${agentList}`,
    parameters: objectSchema(
      {
        objective: { type: "string", description: "What the sub-agent must achieve, stated completely." },
        agent:
          agents.length > 0
            ? { type: "string", enum: agents.map((a) => a.name) }
            : { type: "string", description: "Which agent to use." },
        context: { type: "string", description: "Extra context the sub-agent needs." },
      },
      ["objective"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const objective = reqString(args, ["objective", "prompt", "description"]);
      if (objective.length > TASK_LIMITS.maxObjectiveChars)
        throw new ArgError(`"objective" is longer than ${TASK_LIMITS.maxObjectiveChars} characters`);
      const agent = optString(args, ["agent", "subagent_type"]);
      const context = optString(args, "context");
      if (context !== undefined && context.length > TASK_LIMITS.maxContextChars)
        throw new ArgError(`"context" is longer than ${TASK_LIMITS.maxContextChars} characters`);
      if (!runner) {
        return unavailableResult({
          tool: "task",
          reason: "no-delegate-runner",
          message: "No sub-agent runner is configured in this session; do the work directly instead.",
        });
      }
      if (agent !== undefined && agents.length > 0 && !agents.some((a) => a.name === agent)) {
        throw new ArgError(`unknown agent "${agent}"; available: ${agents.map((a) => a.name).join(", ")}`);
      }
      const answer = await runner.run(
        { objective, ...(agent === undefined ? {} : { agent }), ...(context === undefined ? {} : { context }) },
        ctx.signal,
      );
      return answer.ok
        ? { content: [{ type: "text", text: answer.output }] }
        : { content: [{ type: "text", text: answer.output }], isError: true };
    },
  });
}

export function taskCard(): CapabilityCard {
  return {
    id: capabilityId("task"),
    title: "Delegate to sub-agent",
    summary: "Runs an objective on a sub-agent through the injected DelegateRunner; a typed stub when none.",
    profiles: ["all"],
    build: (ctx) => buildTaskCapability(ctx),
  };
}
