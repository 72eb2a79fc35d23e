/**
 * `indusr mcp approve`: the non-interactive way to let this project's MCP
 * files from other tools start their servers. Stored in the user's state
 * folder (never in the project), once per project and file. With a server
 * name, it pins that server's definitions instead (`trust/approve-server.ts`).
 */
import { approveProjectRows } from "@indus/deck/mcp-config";
import { resolveMcpConfig } from "@indus/deck";
import { pendingText } from "../config/config-load";
import { cliEnv } from "../cli-env";
import { EXIT, UsageError } from "../exit";

export async function mcpApproveCommand(
  server: string | undefined,
  options: { cwd?: string; json?: boolean; mcp?: string[]; tool?: string },
): Promise<number> {
  if (server !== undefined) {
    const { approveServer } = await import("../trust/approve-server");
    return approveServer(server, options);
  }
  if (options.tool !== undefined)
    throw new UsageError("--tool needs a server: indusr mcp approve <server> --tool <name>");
  const cli = cliEnv(options);
  const pending = resolveMcpConfig({}, cli.cwd, { env: cli.env }).pendingApproval;
  const stateFile = pending.length > 0 ? approveProjectRows(cli.cwd, pending, cli.env) : undefined;
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ project: cli.cwd, approved: pending, stateFile: stateFile ?? null }, null, 2)}\n`,
    );
  } else if (pending.length === 0) {
    process.stdout.write(`Nothing to approve in ${cli.cwd}.\n`);
  } else {
    // The difference first, then what was approved.
    for (const p of pending) process.stdout.write(pendingText(p));
    for (const p of pending) process.stdout.write(`Approved ${p.file} (${p.names.join(", ")})\n`);
    process.stdout.write(`Recorded in ${stateFile}\n`);
  }
  return EXIT.ok;
}
