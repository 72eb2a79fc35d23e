/** `indusr mcp logs <name>`: a server's captured stderr. */
import fs from "node:fs";
import path from "node:path";
import { cliEnv, defaultLogDir } from "../cli-env";
import { EXIT, UsageError } from "../program";

export async function mcpLogsCommand(
  name: string,
  options: { lines?: string; logDir?: string; sessionDir?: string },
): Promise<number> {
  const cli = cliEnv();
  const dir = options.logDir ?? defaultLogDir(cli, options.sessionDir);
  const file = path.join(dir, `${name}.log`);
  let lines: number | undefined;
  if (options.lines !== undefined) {
    lines = Number(options.lines);
    if (!Number.isInteger(lines) || lines < 1)
      throw new UsageError(`--lines takes a whole number of at least 1, not "${options.lines}"`);
  }
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    const known = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith(".log"))
          .map((f) => f.slice(0, -4))
      : [];
    process.stderr.write(
      `indusr: no log for "${name}" in ${dir}${known.length > 0 ? ` (logs exist for: ${known.sort().join(", ")})` : " (no server has logged there yet)"}\n`,
    );
    return EXIT.failed;
  }
  if (lines !== undefined) {
    const all = text.split("\n");
    if (all[all.length - 1] === "") all.pop();
    text = all.slice(-lines).join("\n") + "\n";
  }
  process.stdout.write(text);
  return EXIT.ok;
}
