/**
 * `process`: start, list, read the output of, and stop background processes
 * (dev servers, watchers, long builds) for the session. Output is kept in
 * bounded per-stream buffers; reads are incremental.
 */
import fs from "node:fs";
import type { Card } from "../vocabulary";
import { ArgError, inputObject, optInt, optString, reqEnum, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { resolvePath } from "../paths";
import { errorResult, textResult } from "../results";
import { sessionOf } from "../session";
import { describeState, type ManagedProcess, type ProcessTable, runtimeOf } from "./process-table";
import { plural } from "./text";

const ACTIONS = ["start", "list", "read", "stop"] as const;

export function renderOutput(label: string, lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  return [`--- ${label} ---`, ...lines];
}

export function renderRead(table: ProcessTable, entry: ManagedProcess, tail: number | undefined): string {
  const head = `${entry.id} (pid ${entry.pid ?? "?"}) ${describeState(entry)} after ${runtimeOf(entry)}: ${entry.command}`;
  if (tail !== undefined) {
    const out = entry.stdout.tail(tail);
    const err = entry.stderr.tail(tail);
    const body = [...renderOutput("stdout", out), ...renderOutput("stderr", err)];
    return [head, ...(body.length === 0 ? ["(no output yet)"] : body)].join("\n");
  }
  const fresh = table.readNew(entry);
  const body = [...renderOutput("stdout", fresh.stdout), ...renderOutput("stderr", fresh.stderr)];
  const notes =
    fresh.dropped > 0
      ? [`[${plural(fresh.dropped, "older line")} dropped: buffers keep the last ${table.maxLines} lines per stream]`]
      : [];
  return [head, ...notes, ...(body.length === 0 ? ["(no new output)"] : body)].join("\n");
}

export function lookup(table: ProcessTable, id: string): ManagedProcess {
  const entry = table.get(id) ?? table.list().find((p) => p.name === id);
  if (!entry) {
    const known = table.list().map((p) => p.id);
    throw new ArgError(`no process "${id}"${known.length > 0 ? `; known: ${known.join(", ")}` : ""}`);
  }
  return entry;
}

export function renderList(table: ProcessTable): string {
  const rows = table.list();
  if (rows.length === 0) return "No background processes.";
  return rows
    .map(
      (p) =>
        `${p.id}${p.name ? ` [${p.name}]` : ""}  pid ${p.pid ?? "?"}  ${describeState(p)}  ${runtimeOf(p)}  ${p.command}`,
    )
    .join("\n");
}

export function processTool(): Card {
  return defineCard({
    name: "process",
    label: "Manage background processes",
    readOnly: false,
    description:
      "Manage long-running background processes (dev servers, watchers, builds) for this session. action=start runs command in the background and returns its id; action=list shows every process; action=read returns output produced since the last read (or the last tail lines); action=stop terminates the process and its children (SIGTERM, then SIGKILL after 3s). Each stream keeps its last 2000 lines.",
    parameters: objectSchema(
      {
        action: { type: "string", enum: [...ACTIONS] },
        command: { type: "string", description: "start: the command line to run." },
        cwd: { type: "string", description: "start: directory to run in (default: the working directory)." },
        name: { type: "string", description: "start: an optional label to refer to the process by." },
        id: { type: "string", description: "read/stop: the process id (or name)." },
        tail: {
          type: "integer",
          minimum: 1,
          maximum: 2000,
          description: "read: return the last N lines instead of new output.",
        },
      },
      ["action"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const action = reqEnum(args, "action", ACTIONS);
      const table = sessionOf(ctx).processes();
      switch (action) {
        case "start": {
          const command = reqString(args, ["command", "cmd"]);
          const cwdArg = optString(args, "cwd");
          const cwd = cwdArg === undefined ? ctx.cwd : resolvePath(ctx.cwd, cwdArg);
          if (!fs.existsSync(cwd)) return errorResult(`process: directory ${cwd} does not exist`);
          const name = optString(args, "name");
          const entry = table.start(command, cwd, name === undefined ? {} : { name });
          await table.settle(entry, 300);
          const text = renderRead(table, entry, undefined);
          return entry.state === "running" || entry.exitCode === 0
            ? textResult(`Started ${text}`)
            : errorResult(`Started ${text}`);
        }
        case "list":
          return textResult(renderList(table));
        case "read": {
          const entry = lookup(table, reqString(args, ["id", "name"]));
          return textResult(renderRead(table, entry, optInt(args, ["tail", "lines"], { min: 1, max: 2000 })));
        }
        case "stop": {
          const entry = lookup(table, reqString(args, ["id", "name"]));
          await table.stop(entry);
          return textResult(renderRead(table, entry, undefined));
        }
      }
    },
  });
}
