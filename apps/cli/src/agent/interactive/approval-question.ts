/**
 * The interactive session's question about another tool's project file
 * (`.mcp.json`, `.vscode/mcp.json`, ...) before its servers start: one key,
 * `y` this file, `n` not now, `a` this and every other file pending; anything
 * else asks again. Asked before the session starts, on the same terminal.
 */
import path from "node:path";
import type { PendingApproval } from "@indus/deck/mcp-config";
import type { ApprovalAnswer, ProjectFileApprover } from "../../config/config-load";
import type { Style } from "../render";
import { askKey, type KeyOption, type RawKeyIo } from "./key-question";

const OPTIONS: readonly KeyOption<ApprovalAnswer>[] = [
  { key: "y", value: "yes" },
  { key: "n", value: "no" },
  { key: "a", value: "all" },
];

export function approvalQuestion(pending: PendingApproval, style: Style): string {
  const servers = pending.names.join(", ");
  const relative = path.relative(pending.project, pending.file);
  const file = relative.startsWith("..") ? pending.file : relative;
  return `${style.yellow("?")} start ${style.bold(servers)} from ${file} (another tool's project file, not approved in this folder)? [y]es · [n]o · [a]ll pending files › `;
}

/** Ctrl-C answers no. */
export function keyApprover(io: RawKeyIo, style: Style): ProjectFileApprover {
  return async (pending) => (await askKey(io, approvalQuestion(pending, style), OPTIONS)) ?? "no";
}
