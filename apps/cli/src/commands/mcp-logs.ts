/** `indusr mcp logs <name>`: a server's captured stderr, the latest run (or every kept run with `--all`). */
import fs from "node:fs";
import { cliEnv, defaultLogDir } from "../cli-env";
import { EXIT, UsageError } from "../exit";
import { loggedServers, serverLogs } from "../boot/run-logs";

function lastLines(text: string, lines: number | undefined): string {
  if (lines === undefined) return text;
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all.slice(-lines).join("\n") + "\n";
}

export async function mcpLogsCommand(
  name: string,
  options: { lines?: string; logDir?: string; sessionDir?: string; all?: boolean },
): Promise<number> {
  const cli = cliEnv();
  const dir = options.logDir ?? defaultLogDir(cli, options.sessionDir);
  let lines: number | undefined;
  if (options.lines !== undefined) {
    lines = Number(options.lines);
    if (!Number.isInteger(lines) || lines < 1)
      throw new UsageError(`--lines takes a whole number of at least 1, not "${options.lines}"`);
  }
  const files = serverLogs(dir, name);
  if (files.length === 0) {
    const known = loggedServers(dir);
    process.stderr.write(
      `indusr: no log for "${name}" in ${dir}${known.length > 0 ? ` (logs exist for: ${known.join(", ")})` : " (no server has logged there yet)"}\n`,
    );
    return EXIT.failed;
  }
  const shown = options.all ? files : files.slice(-1);
  for (const file of shown) {
    if (options.all) process.stdout.write(`==> ${file} <==\n`);
    process.stdout.write(lastLines(fs.readFileSync(file, "utf8"), lines));
  }
  return EXIT.ok;
}
