/**
 * The official MCP extensions indus implements, by the identifier each side
 * declares under `capabilities.extensions` (SEP-2133). One list, so a
 * declaration and the code that honours it name the same extension.
 */
export const EXTENSIONS = {
  /** Skills (SEP-2640): a server offers `skills/list`, `skills/get` and skill files as resources. */
  skills: "io.modelcontextprotocol/skills",
  /** MCP Apps (SEP-1865): a client that can show `ui://` views declares the MIME types it renders. */
  apps: "io.modelcontextprotocol/ui",
  /**
   * Tasks (SEP-2663, 2026-07-28 era): a server may answer a `tools/call` with a task to follow
   * (`tasks/get`, `tasks/update`, `tasks/cancel`); a client declares it per request.
   */
  tasks: "io.modelcontextprotocol/tasks",
} as const;

export type ExtensionName = keyof typeof EXTENSIONS;

/** The MIME type of an MCP App view (an HTML document run in a sandboxed frame). */
export const APP_VIEW_MIME_TYPE = "text/html;profile=mcp-app";
