/**
 * `indusr tool` or `indusr help` is a typo or a habit from another CLI, not a
 * task: answering it with a model turn costs money and confuses. A lone bare
 * word close to a command (or one of the usual meta words) gets a suggestion.
 */
import { editDistance } from "./edit-distance";

/** Words people type at a CLI that are not indusr commands, and what they meant. */
const HABITS: Readonly<Record<string, string>> = {
  help: "indusr --help",
  version: "indusr --version",
  "--help": "indusr --help",
  list: "indusr mcp list",
  status: "indusr mcp status",
  serve: "indusr mcp serve",
  servers: "indusr mcp list",
};

/** The message for a lone word that looks like a command, or undefined when it may be a real prompt. */
export function didYouMean(word: string, commands: readonly string[]): string | undefined {
  const bare = word.trim().toLowerCase();
  if (!/^[a-z][a-z-]*$/.test(bare)) return undefined;
  const habit = HABITS[bare];
  if (habit) return `"${word}" is not a command. Did you mean \`${habit}\`? (To ask the agent, write a sentence.)`;
  const limit = bare.length <= 4 ? 1 : 2;
  const near = commands
    .map((name) => ({ name, d: editDistance(bare, name) }))
    .filter((c) => c.d <= limit)
    .sort((a, b) => a.d - b.d)[0];
  if (!near) return undefined;
  return `"${word}" is not a command. Did you mean \`indusr ${near.name}\`? (To ask the agent, write a sentence.)`;
}
