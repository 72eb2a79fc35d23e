/**
 * `indusr tool` or `indusr help` is a typo or a habit from another CLI, not a
 * task: answering it with a model turn costs money and confuses. A lone bare
 * word close to a command (or one of the usual meta words) gets a suggestion.
 */

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

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The message for a lone word that looks like a command, or undefined when it may be a real prompt. */
export function didYouMean(word: string, commands: readonly string[]): string | undefined {
  const bare = word.trim().toLowerCase();
  if (!/^[a-z][a-z-]*$/.test(bare)) return undefined;
  const habit = HABITS[bare];
  if (habit) return `"${word}" is not a command. Did you mean \`${habit}\`? (To ask the agent, write a sentence.)`;
  const limit = bare.length <= 4 ? 1 : 2;
  const near = commands
    .map((name) => ({ name, d: distance(bare, name) }))
    .filter((c) => c.d <= limit)
    .sort((a, b) => a.d - b.d)[0];
  if (!near) return undefined;
  return `"${word}" is not a command. Did you mean \`indusr ${near.name}\`? (To ask the agent, write a sentence.)`;
}
