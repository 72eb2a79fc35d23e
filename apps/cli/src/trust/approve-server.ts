/**
 * `indusr mcp approve <server> [--tool <name>]`: connect that one server
 * with nothing withheld, list every kind of definition it offers (with the
 * `ui://` bodies they present), show how each differs from its pin, and
 * write the new pins into the lock file beside the server's config. With
 * `--tool`, only that tool's pin changes.
 */
import { approvePins, describePinChange, type OnlyDefinition, type PinChange } from "@indus/deck/trust";
import type { McpFleet } from "@indus/contract";
import type { ConnectedMcp } from "../boot/connect-mcp";
import { EXIT, UsageError } from "../exit";
import { bootOptionsOf, type DeckFlags } from "../commands/shared";
import { lateClientHost } from "../boot/late-client-host";
import { RecordingGate } from "./recording-gate";
import { declaredCapabilities } from "./trust-session";
import { screenCatalogs } from "./screen-catalogs";

export interface ApproveServerFlags extends DeckFlags {
  readonly tool?: string;
}

interface Approval {
  readonly server: string;
  readonly lockFile: string | null;
  readonly changes: readonly PinChange[];
  readonly note?: string;
}

export async function approveServer(server: string, flags: ApproveServerFlags): Promise<number> {
  const { options } = bootOptionsOf({ ...flags, json: true }, "all");
  const recorder = new RecordingGate();
  const { connectMcp } = await import("../boot/connect-mcp");
  const connected = await connectMcp({
    ...options,
    // Declaring every capability (answering none), so the pins cover all a server may list to the agent or a gateway.
    clientHost: lateClientHost().hooks,
    gate: recorder,
    selectServers: (servers) => servers.filter((s) => s.id === server),
  });
  try {
    const approval = await approveConnected(server, connected, recorder, flags.tool);
    print(approval, flags.json === true);
    return EXIT.ok;
  } finally {
    await connected.mcp.tearDown();
  }
}

async function approveConnected(
  server: string,
  connected: ConnectedMcp,
  recorder: RecordingGate,
  tool: string | undefined,
): Promise<Approval> {
  const config = connected.mcp.servers.find((s) => s.id === server);
  if (config === undefined)
    throw new UsageError(
      `no MCP server "${server}" is configured here (one from another tool's project file waits for \`indusr mcp approve\` first; see \`indusr mcp list\`)`,
    );
  await readyOrFail(server, connected.mcp.fleet);
  if (config.trust === "off")
    return { server, lockFile: null, changes: [], note: `trust is "off" for "${server}": nothing is pinned` };
  const listings = recorder.listings(server);
  const only: OnlyDefinition | undefined = tool === undefined ? undefined : { kind: "tool", name: tool };
  if (tool !== undefined && !(listings.tool ?? []).some((l) => l.item["name"] === tool))
    throw new UsageError(`server "${server}" lists no tool "${tool}"`);
  const lockFiles = connected.trust.lockFiles;
  const declared = declaredCapabilities(lateClientHost().hooks);
  const { pins, changes } = approvePins(lockFiles.read(server), listings, only, declared);
  const lockFile = lockFiles.replace(server, pins);
  const note = config.trust === "strict" ? `trust is "strict": definitions inspection flags stay refused` : undefined;
  return { server, lockFile, changes, ...(note ? { note } : {}) };
}

/** The server is up and its catalogs listed (so every kind is recorded); otherwise its fault, as a usage error. */
async function readyOrFail(server: string, fleet: McpFleet | undefined): Promise<void> {
  const endpoint = fleet?.endpoint(server);
  if (endpoint?.phase !== "ready") {
    const fault = endpoint?.status().fault;
    throw new UsageError(
      `server "${server}" did not start${fault ? ` (${fault.kind}: ${fault.message.split("\n")[0]})` : ""}: nothing to approve`,
    );
  }
  await screenCatalogs(fleet);
}

function print(approval: Approval, json: boolean): void {
  if (json) {
    const changes = approval.changes.map(({ kind, name, change, fields }) => ({
      kind,
      name,
      change,
      ...(fields ? { fields } : {}),
    }));
    process.stdout.write(`${JSON.stringify({ ...approval, changes }, null, 2)}\n`);
    return;
  }
  const lines = approval.changes.flatMap((change) => describePinChange(approval.server, change));
  if (approval.lockFile !== null && approval.changes.length === 0)
    lines.push(`Nothing changed since "${approval.server}" was pinned.`);
  if (approval.lockFile !== null) lines.push(`Pinned in ${approval.lockFile}`);
  if (approval.note) lines.push(approval.note);
  process.stdout.write(`${lines.join("\n")}\n`);
}
