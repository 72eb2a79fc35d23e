/**
 * `indusr mcp approve`: the non-interactive way to let this project's MCP
 * files from other tools start their servers. Stored in the user's state
 * folder (never in the project), once per project and file.
 */
import { approveProjectFiles, resolveMcpConfig } from "@indus/deck";
import { cliEnv } from "../cli-env";
import { EXIT } from "../exit";

export async function mcpApproveCommand(options: { cwd?: string; json?: boolean }): Promise<number> {
  const cli = cliEnv(options);
  const pending = resolveMcpConfig({}, cli.cwd, { env: cli.env }).pendingApproval;
  const files = pending.map((p) => p.file);
  const stateFile = files.length > 0 ? approveProjectFiles(cli.cwd, files, cli.env) : undefined;
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ project: cli.cwd, approved: pending, stateFile: stateFile ?? null }, null, 2)}\n`,
    );
  } else if (pending.length === 0) {
    process.stdout.write(`Nothing to approve in ${cli.cwd}.\n`);
  } else {
    for (const p of pending) process.stdout.write(`Approved ${p.file} (${p.names.join(", ")})\n`);
    process.stdout.write(`Recorded in ${stateFile}\n`);
  }
  return EXIT.ok;
}
