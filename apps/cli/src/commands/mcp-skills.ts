/**
 * `indusr mcp skills [server]`: connect the configured servers (or one) and
 * list the skills they offer (SEP-2640) as the agent offers them,
 * `/<server>:<skill>`, with each one's description. Listing reads no skill
 * file (hosts must not fetch ahead of need). Exit 1 for an unknown server.
 */
import { UsageError } from "../exit";
import { commandOf, listSkillCommands } from "../skills/skill-commands";
import { paint, warnFailedServers, withServers, type DeckFlags } from "./shared";
import { table } from "./tools";

export function mcpSkillsCommand(server: string | undefined, flags: DeckFlags): Promise<number> {
  return withServers(flags, async ({ mcp, reports }, cli) => {
    if (server !== undefined && !mcp.servers.some((s) => s.id === server)) {
      throw new UsageError(`no MCP server "${server}" is configured`);
    }
    warnFailedServers(
      cli,
      reports().filter((report) => (server === undefined || report.id === server) && report.phase !== "ready"),
    );
    const skills = await listSkillCommands(mcp.fleet, server, (id, error) =>
      process.stderr.write(
        `${paint(cli, "33", "warning")}: ${id}: listing skills failed: ${(error as Error).message}\n`,
      ),
    );
    if (flags.json) {
      const json = skills.map((skill) => ({ command: `/${commandOf(skill)}`, server: skill.server, ...skill.entry }));
      process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    } else if (skills.length === 0) {
      process.stdout.write(`No skills offered${server === undefined ? "" : ` by "${server}"`}.\n`);
    } else {
      const rows = [["COMMAND", "URI", "DESCRIPTION"]];
      for (const skill of skills)
        rows.push([`/${commandOf(skill)}`, skill.entry.uri, skill.entry.frontmatter.description]);
      process.stdout.write(`${table(rows, 100)}\n`);
    }
    return 0;
  });
}
