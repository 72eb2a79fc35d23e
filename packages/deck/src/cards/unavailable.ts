/** The typed stub result a card returns when its injected backend is absent. */
import type { ToolResult } from "@indus/contract";

export interface UnavailableBackend {
  readonly status: "unavailable";
  readonly tool: string;
  readonly reason: "no-delegate-runner" | "no-saas-gateway";
  readonly message: string;
}

export function unavailableResult(stub: Omit<UnavailableBackend, "status">): ToolResult {
  const value = { status: "unavailable", ...stub } as const;
  return { content: [{ type: "json", value: { ...value } }], isError: true };
}
