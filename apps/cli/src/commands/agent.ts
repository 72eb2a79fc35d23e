/**
 * The root command: `indusr -p "…"` runs one task, `indusr` on a terminal
 * opens the interactive session. See src/agent/ for the agent itself.
 */
import { runAgentCommand, type AgentFlags } from "../agent/run-agent";
import { handOverSignals } from "../teardown";

export async function agentCommand(prompt: string[], options: AgentFlags): Promise<number> {
  const { bootDeck } = await import("../boot/boot");
  return runAgentCommand(prompt, options, {
    bootDeck,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signals: handOverSignals(process),
  });
}
