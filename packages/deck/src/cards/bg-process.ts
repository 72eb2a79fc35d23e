/**
 * The `bg-process` app card: a background-process table owned by the built
 * capability. At most 2,000 lines are buffered per stream; every stream is
 * also captured to a file under `<cwd>/.indusvx-bg`; stop sends SIGTERM to
 * the process group and SIGKILL after 3 s.
 */
import path from "node:path";
import fs from "node:fs";
import type { JsonValue } from "@indus/contract";
import type { Capability, CapabilityCard, DeckContext } from "../vocabulary";
import { capabilityId } from "../vocabulary";
import { inputObject, optInt, optString, reqEnum, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { resolvePath } from "../paths";
import { errorResult } from "../results";
import { lookup, renderList, renderRead } from "../tools/process";
import { type ManagedProcess, ProcessTable } from "../tools/process-table";

export const MAX_BUFFERED_LINES = 2_000;
export const STOP_GRACE_MS = 3_000;
export const BG_CAPTURE_DIRNAME = ".indusvx-bg";

const ACTIONS = ["start", "poll", "stop", "list"] as const;

function statusJson(entry: ManagedProcess): JsonValue {
  return {
    id: entry.id,
    pid: entry.pid ?? null,
    state: entry.state,
    exitCode: entry.exitCode,
    signal: entry.signal,
    command: entry.command,
    ...(entry.captureFiles
      ? { captureFiles: { stdout: entry.captureFiles.stdout, stderr: entry.captureFiles.stderr } }
      : {}),
  };
}

export function buildBgProcessCapability(deck: DeckContext): Capability {
  const captureDir = path.join(deck.cwd, BG_CAPTURE_DIRNAME);
  const table = new ProcessTable({ maxLines: MAX_BUFFERED_LINES, graceMs: STOP_GRACE_MS, captureDir });
  return defineCard({
    name: "bg-process",
    label: "Background processes",
    readOnly: false,
    description: `Run and watch background processes. action=start runs command and returns its id; action=poll returns its status and the output since the last poll (tail=N for the last N lines); action=stop terminates it and its children (SIGTERM, SIGKILL after ${STOP_GRACE_MS / 1000}s); action=list shows all. Output is captured to files under ${BG_CAPTURE_DIRNAME}/ and the last ${MAX_BUFFERED_LINES} lines per stream are kept in memory.`,
    parameters: objectSchema(
      {
        action: { type: "string", enum: [...ACTIONS] },
        command: { type: "string", description: "start: the command line." },
        cwd: { type: "string", description: "start: directory to run in." },
        id: { type: "string", description: "poll/stop: the process id." },
        tail: {
          type: "integer",
          minimum: 1,
          maximum: MAX_BUFFERED_LINES,
          description: "poll: last N lines instead of new output.",
        },
      },
      ["action"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const action = reqEnum(args, "action", ACTIONS);
      switch (action) {
        case "start": {
          const command = reqString(args, ["command", "cmd"]);
          const cwdArg = optString(args, "cwd");
          const cwd = cwdArg === undefined ? ctx.cwd : resolvePath(ctx.cwd, cwdArg);
          if (!fs.existsSync(cwd)) return errorResult(`bg-process: directory ${cwd} does not exist`);
          const entry = table.start(command, cwd);
          await table.settle(entry, 300);
          const failed = entry.state === "failed" || (entry.state !== "running" && entry.exitCode !== 0);
          return {
            content: [
              { type: "text", text: `Started ${renderRead(table, entry, undefined)}` },
              { type: "json", value: statusJson(entry) },
            ],
            isError: failed,
          };
        }
        case "poll": {
          const entry = lookup(table, reqString(args, "id"));
          const text = renderRead(table, entry, optInt(args, "tail", { min: 1, max: MAX_BUFFERED_LINES }));
          return {
            content: [
              { type: "text", text },
              { type: "json", value: statusJson(entry) },
            ],
          };
        }
        case "stop": {
          const entry = lookup(table, reqString(args, "id"));
          await table.stop(entry);
          return {
            content: [
              { type: "text", text: renderRead(table, entry, undefined) },
              { type: "json", value: statusJson(entry) },
            ],
          };
        }
        case "list":
          return {
            content: [
              { type: "text", text: renderList(table) },
              { type: "json", value: table.list().map(statusJson) },
            ],
          };
      }
    },
    dispose: () => table.stopAll(),
  });
}

export function bgProcessCard(): CapabilityCard {
  return {
    id: capabilityId("bg-process"),
    title: "Background processes",
    summary:
      "start | poll | stop | list; 2,000 lines per stream, capture files under .indusvx-bg, SIGTERM then SIGKILL after 3 s.",
    profiles: ["all"],
    build: (ctx) => buildBgProcessCapability(ctx),
  };
}
