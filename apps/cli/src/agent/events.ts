/**
 * What a session reports as it runs. One union feeds every surface: the
 * `stream-json` lines are these events verbatim, `json` and `text` output
 * and the interactive renderer are views over them.
 */
import type { EndpointPhase, FaultKind } from "@indus/contract";
import type { ServerReport } from "../boot/boot-types";

export interface ServerStatusView {
  readonly id: string;
  readonly transport: string;
  readonly phase: EndpointPhase;
  readonly toolCount: number;
  readonly connectMs?: number;
  readonly source?: string;
  readonly fault?: { readonly kind: FaultKind; readonly message: string };
}

export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
}

export type RefusalKind = "not-allowed" | "denied" | "plan-mode" | "interrupted" | "max-turns";

export type ResultSubtype = "success" | "error_max_turns" | "error_model" | "interrupted";

export type AgentEvent =
  | {
      readonly type: "session_start";
      readonly sessionId: string;
      readonly cwd: string;
      readonly provider: string;
      readonly model: string;
      readonly baseUrl: string;
      readonly transcript: string;
      readonly tools: readonly { readonly name: string; readonly origin: string; readonly readOnly: boolean }[];
      readonly servers: readonly ServerStatusView[];
      readonly diagnostics: readonly {
        readonly file: string;
        readonly row?: string;
        readonly message: string;
        readonly severity: string;
      }[];
    }
  | { readonly type: "turn_start"; readonly turn: number }
  | { readonly type: "text_delta"; readonly turn: number; readonly text: string }
  | { readonly type: "reasoning_delta"; readonly turn: number; readonly text: string }
  | {
      readonly type: "tool_call";
      readonly turn: number;
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
      readonly readOnly: boolean;
    }
  | {
      readonly type: "tool_result";
      readonly turn: number;
      readonly id: string;
      readonly name: string;
      readonly isError: boolean;
      /** The text the model is sent for this call. */
      readonly content: string;
      readonly durationMs: number;
      readonly refused?: RefusalKind;
      /** Set when the result was capped: its full size and where it was saved. */
      readonly capped?: { readonly totalChars: number; readonly file: string };
    }
  | {
      readonly type: "tool_progress";
      readonly id: string;
      readonly name: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  | { readonly type: "plan_mode"; readonly active: boolean; readonly planFile?: string; readonly approved?: boolean }
  | {
      readonly type: "turn_end";
      readonly turn: number;
      readonly finishReason: string;
      readonly usage: UsageTotals;
    }
  | { readonly type: "warning"; readonly message: string }
  /** A call its server runs as a task went on in the background (`started`), or such a task ended. */
  | {
      readonly type: "background_task";
      readonly n: number;
      readonly name: string;
      readonly taskId: string;
      readonly state: "started" | "completed" | "failed";
      /** The result's text, once ended. */
      readonly content?: string;
    }
  /** The conversation was compacted to fit the context window (`replaced` older messages, `kept` verbatim). */
  | {
      readonly type: "compaction";
      readonly reason: "auto" | "overflow" | "manual";
      readonly outcome: "summarised" | "dropped" | "nothing";
      readonly replaced?: number;
      readonly kept?: number;
      /** Why nothing was compacted, or why the summary could not be written. */
      readonly detail?: string;
    }
  /** A mounted server changed phase mid-session: it died (its tools withdrawn), or it is back. */
  | {
      readonly type: "server_change";
      readonly server: string;
      readonly phase: EndpointPhase;
      readonly toolCount: number;
      readonly fault?: { readonly kind: FaultKind; readonly message: string };
    }
  /**
   * A mounted server asked the session something mid-call (a form, a link to
   * open, a model completion) and this is how it was answered; `reason` when
   * the policy, not the user, decided; `usage` for a sampling answer.
   */
  | {
      readonly type: "host_request";
      readonly server: string;
      readonly request: "form" | "url" | "sampling";
      readonly outcome: "accept" | "decline" | "cancel" | "error";
      readonly reason?: string;
      readonly usage?: UsageTotals;
    }
  /** A tool call made by a `task` sub-agent, shown compactly under the parent's call. */
  | { readonly type: "subagent_call"; readonly agent: string; readonly name: string; readonly input: unknown }
  | {
      readonly type: "result";
      readonly subtype: ResultSubtype;
      readonly isError: boolean;
      /** The final assistant text. */
      readonly result: string;
      readonly error?: string;
      readonly sessionId: string;
      readonly turns: number;
      readonly durationMs: number;
      readonly usage: UsageTotals;
      readonly transcript: string;
    };

export type EventSink = (event: AgentEvent) => void;

export const ZERO_USAGE: UsageTotals = {
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
};

export function addUsage(a: UsageTotals, b: Partial<UsageTotals>): UsageTotals {
  return {
    inputTokens: a.inputTokens + (b.inputTokens ?? 0),
    outputTokens: a.outputTokens + (b.outputTokens ?? 0),
    totalTokens: a.totalTokens + (b.totalTokens ?? 0),
    cachedInputTokens: a.cachedInputTokens + (b.cachedInputTokens ?? 0),
    reasoningTokens: a.reasoningTokens + (b.reasoningTokens ?? 0),
  };
}

export function serverView(report: ServerReport): ServerStatusView {
  return {
    id: report.id,
    transport: report.transport,
    phase: report.phase,
    toolCount: report.toolCount,
    ...(report.connectMs !== undefined ? { connectMs: report.connectMs } : {}),
    ...(report.source !== undefined ? { source: report.source } : {}),
    ...(report.fault !== undefined ? { fault: report.fault } : {}),
  };
}
