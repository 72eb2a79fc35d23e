/**
 * The permission question, answered with one key: `y` once, `a` always for
 * this tool, `s` always for every tool of its MCP server (both saved for the
 * project), `n` no. Anything else asks again.
 */
import type { ToolCall } from "@indus/contract";
import { summariseInput, type Style } from "../render";
import type { PermissionAnswer } from "../session/permission";
import type { KeyOption } from "./key-question";

export function permissionOptions(server: string | undefined): KeyOption<PermissionAnswer>[] {
  return [
    { key: "y", value: "once" },
    { key: "a", value: "always" },
    ...(server !== undefined ? [{ key: "s", value: "server" as const }] : []),
    { key: "n", value: "deny" },
  ];
}

export function permissionQuestion(call: ToolCall, server: string | undefined, style: Style, width = 70): string {
  const always = `[a]lways ${call.name} here`;
  const serverChoice = server !== undefined ? ` · [s]erver: all of ${server} here` : "";
  return `${style.yellow("?")} allow ${style.bold(call.name)} ${style.dim(summariseInput(call.input, width))}  [y]es once · ${always}${serverChoice} · [n]o › `;
}
