/**
 * The agent as the MCP client host: it answers what mounted servers ask of
 * it mid-call. Elicitation goes to the terminal form (or, in a `-p` run, the
 * non-interactive policy); sampling goes to the session's own model once the
 * user approves (or `--allow-sampling` did); roots are the working directory
 * and `--add-dir` folders.
 *
 * The hooks exist before the session does (the servers connect during boot),
 * so the surface that answers is bound later; a request that arrives before
 * that is declined. Requests are presented one at a time. When the policy,
 * not the user, decided, a note for the model rides on the result of the
 * tool call that caused the request, so it knows why and does not retry.
 */
import type { ClientHostHooks, ElicitationAnswer, JsonObject } from "@indus/contract";
import { APP_VIEW_MIME_TYPE, ProtocolFault } from "@indus/contract";
import { addUsage, ZERO_USAGE, type EventSink, type UsageTotals } from "../events";
import { matchesAny } from "../session/permission";
import { defaultsOnly, formFields } from "./form-fields";
import { describeSampling, sample, samplingRequest, type SamplingModel } from "./sampling";
import { SessionRoots } from "./session-roots";
import { askForm, askSampling, askUrl, withdrawable, type TerminalPrompter } from "./terminal-form";

export interface HostPolicy {
  readonly cwd: string;
  /** `--add-dir` folders: roots besides the working directory. */
  readonly addDirs?: readonly string[];
  /** `--allow-sampling` server ids (globs): their sampling runs without asking. */
  readonly allowSampling?: readonly string[];
  /** `--yes`: with nobody to ask, accept a form whose required fields all have defaults. */
  readonly yes?: boolean;
}

export interface HostBinding {
  /** The person at the terminal; absent in `-p` runs. */
  readonly terminal?: TerminalPrompter;
  /** What aborts a presented request or a sampling call (the running turn's interrupt). */
  readonly signal: () => AbortSignal;
  readonly model: SamplingModel;
  /** Sampling spends the session's tokens: count them where the session counts its own. */
  readonly countUsage: (usage: Partial<UsageTotals>) => void;
  readonly emit: EventSink;
  /** Opens a URL in the browser; `false` when there is none to open. */
  readonly openUrl: (url: string) => Promise<boolean>;
}

/** JSON-RPC's code for "the user rejected the sampling request" (MCP spec). */
const USER_REJECTED = -1;

/**
 * The refusal the server gets. `rpcCode` is the contract's field for the
 * code; `code` is what the SDK's request handler puts on the wire today.
 */
function rejected(message: string): ProtocolFault {
  return Object.assign(new ProtocolFault("protocol", message, { rpcCode: USER_REJECTED }), { code: USER_REJECTED });
}

function isAborted(signal: AbortSignal | undefined): signal is AbortSignal {
  return signal?.aborted === true;
}

export class AgentClientHost {
  readonly roots: SessionRoots;
  private binding: HostBinding | undefined;
  private readonly sampleAlways = new Set<string>();
  private readonly notes: { server: string; text: string }[] = [];
  private presenting: Promise<unknown> = Promise.resolve();

  constructor(private readonly policy: HostPolicy) {
    this.roots = new SessionRoots(policy.cwd, policy.addDirs ?? []);
  }

  bind(binding: HostBinding): void {
    this.binding = binding;
  }

  /**
   * The capabilities every mounted server sees, and their handlers. A request
   * withdrawn (`signal`: the server cancelled it, or its call was cancelled)
   * leaves the prompt line, or is never shown if it was still waiting its turn.
   */
  hooks(): ClientHostHooks {
    return {
      elicit: (server, params, signal) =>
        this.exclusive(() =>
          this.unlessWithdrawn(server, params.mode === "url" ? "url" : "form", signal, () =>
            this.elicit(server, params, signal),
          ),
        ),
      createMessage: (server, params, signal) =>
        this.exclusive(() =>
          this.unlessWithdrawn(server, "sampling", signal, () => this.createMessage(server, params, signal)),
        ),
      listRoots: () => Promise.resolve(this.roots.list()),
      elicitModes: ["form", "url"],
      // The session shows MCP App views (`/app`, `--apps browser`); their text always reaches the terminal too.
      appViews: [APP_VIEW_MIME_TYPE],
    };
  }

  /**
   * Notes for the model about requests the policy answered during a call to
   * `toolName` (`<server>__<tool>`; `saas-action` runs any server's tools).
   */
  takeNotes(toolName: string): string[] {
    const taken: string[] = [];
    for (let i = 0; i < this.notes.length;) {
      const note = this.notes[i]!;
      if (toolName.startsWith(`${note.server}__`) || toolName === "saas-action") {
        taken.push(note.text);
        this.notes.splice(i, 1);
      } else i += 1;
    }
    return taken;
  }

  /** One presentation at a time: two servers asking at once would share one prompt line. */
  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const next = this.presenting.then(run, run);
    this.presenting = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs a request unless it was withdrawn while waiting its turn; one
   * withdrawn while shown ends with a line saying so (the server no longer
   * waits for the answer, so whatever the user typed goes nowhere).
   */
  private async unlessWithdrawn<T>(
    server: string,
    request: "form" | "url" | "sampling",
    signal: AbortSignal | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    if (signal?.aborted === true) throw this.withdrawn(server, request, signal, false);
    const result = await this.presented(run);
    // Read again: the signal may have aborted while the request was shown.
    if (isAborted(signal)) throw this.withdrawn(server, request, signal, true);
    return result;
  }

  private withdrawn(
    server: string,
    request: "form" | "url" | "sampling",
    signal: AbortSignal,
    shown: boolean,
  ): ProtocolFault {
    const reason = typeof signal.reason === "string" ? signal.reason : undefined;
    if (shown) {
      const terminal = this.binding?.terminal;
      const what = request === "sampling" ? "its sampling request" : "its question";
      terminal?.print(
        `${terminal.style.yellow("◆")} ${terminal.style.bold(server)} withdrew ${what}${reason ? ` (${reason})` : ""}; nothing was sent`,
      );
    }
    this.report(server, request, "cancel", { reason: "the server withdrew it" });
    return new ProtocolFault("protocol", `the request of ${server} was withdrawn`);
  }

  /** On a terminal, the whole request (question, answer, outcome line) sits between `begin` and `settled`. */
  private async presented<T>(run: () => Promise<T>): Promise<T> {
    const terminal = this.binding?.terminal;
    terminal?.begin?.();
    try {
      return await run();
    } finally {
      terminal?.settled?.();
    }
  }

  private note(server: string, text: string): void {
    this.notes.push({ server, text });
  }

  private report(
    server: string,
    request: "form" | "url" | "sampling",
    outcome: "accept" | "decline" | "cancel" | "error",
    { reason, usage }: { readonly reason?: string; readonly usage?: Partial<UsageTotals> } = {},
  ): void {
    this.binding?.emit({
      type: "host_request",
      server,
      request,
      outcome,
      ...(reason !== undefined ? { reason } : {}),
      ...(usage !== undefined ? { usage: addUsage(ZERO_USAGE, usage) } : {}),
    });
  }

  private async elicit(server: string, params: JsonObject, withdrawn?: AbortSignal): Promise<ElicitationAnswer> {
    const mode = params.mode === "url" ? "url" : "form";
    const message = typeof params.message === "string" ? params.message : "";
    const binding = this.binding;
    if (!binding?.terminal) return this.elicitUnattended(server, mode, message, params);
    const terminal = withdrawable(binding.terminal, withdrawn);
    const answer =
      mode === "url"
        ? await askUrl(
            server,
            { message, url: typeof params.url === "string" ? params.url : "" },
            terminal,
            binding.openUrl,
          )
        : await askForm(server, message, formFields(params.requestedSchema), terminal);
    if (withdrawn?.aborted !== true) this.report(server, mode, answer.action);
    return answer;
  }

  /** Nobody can answer (`-p`, or before the session started): decline, or `--yes` with defaults. */
  private elicitUnattended(
    server: string,
    mode: "form" | "url",
    message: string,
    params: JsonObject,
  ): ElicitationAnswer {
    const asked = message.length > 0 ? ` ("${message.length > 120 ? `${message.slice(0, 119)}…` : message}")` : "";
    const defaults =
      mode === "form" && this.policy.yes === true ? defaultsOnly(formFields(params.requestedSchema)) : undefined;
    if (defaults) {
      const names = Object.keys(defaults);
      this.note(
        server,
        `Note from indusr: the server "${server}" asked the user for input${asked}; nobody could answer in this non-interactive run, so indusr sent the form's defaults (--yes)${names.length > 0 ? `: ${names.join(", ")}` : ""}.`,
      );
      this.report(server, mode, "accept", { reason: "non-interactive run: the form's defaults (--yes)" });
      return { action: "accept", content: defaults };
    }
    const why = !this.binding
      ? "the request came before the session started"
      : mode === "url"
        ? "this run is non-interactive (-p), and a link needs a person to open it"
        : this.policy.yes === true
          ? "this run is non-interactive (-p), and the form has required fields without defaults"
          : "this run is non-interactive (-p); with --yes, indusr sends a form's defaults when every required field has one";
    this.note(
      server,
      `Note from indusr: the server "${server}" asked the user for input${asked}, and indusr declined it: ${why}. Do not retry; tell the user what the server needs, so they can run this in an interactive session.`,
    );
    this.report(server, mode, "decline", { reason: why });
    return { action: "decline" };
  }

  private async createMessage(server: string, params: JsonObject, withdrawn?: AbortSignal): Promise<JsonObject> {
    const binding = this.binding;
    const request = samplingRequest(params);
    if ("error" in request) {
      this.report(server, "sampling", "error", { reason: request.error });
      throw new ProtocolFault("protocol", `indusr cannot answer this sampling request: ${request.error}`);
    }
    const preApproved = this.sampleAlways.has(server) || matchesAny(server, this.policy.allowSampling ?? []);
    if (!binding || (!binding.terminal && !preApproved)) {
      const why = !binding
        ? "the request came before the session started"
        : `this run is non-interactive (-p); pass --allow-sampling ${server} to let the session's model answer it`;
      this.note(
        server,
        `Note from indusr: the server "${server}" asked for a model completion (sampling), and indusr declined it: ${why}.`,
      );
      this.report(server, "sampling", "decline", { reason: why });
      throw rejected(`The user rejected the sampling request: ${why}`);
    }
    if (binding.terminal && !preApproved) {
      const width = Math.max(40, binding.terminal.width - 12);
      const terminal = withdrawable(binding.terminal, withdrawn);
      const answer = await askSampling(server, describeSampling(params, width), request.maxTokens, terminal);
      if (withdrawn?.aborted === true) return {};
      if (answer === "deny") {
        this.report(server, "sampling", "decline", { reason: "the user denied it" });
        throw rejected("The user rejected the sampling request.");
      }
      if (answer === "always") this.sampleAlways.add(server);
    }
    try {
      const signal = withdrawn === undefined ? binding.signal() : AbortSignal.any([binding.signal(), withdrawn]);
      const answered = await sample(binding.model, request, signal);
      binding.countUsage(answered.usage);
      this.report(server, "sampling", "accept", { usage: answered.usage });
      return answered.result;
    } catch (error) {
      if (withdrawn?.aborted === true) return {};
      const reason = error instanceof Error ? error.message : String(error);
      this.report(server, "sampling", "error", { reason });
      throw new ProtocolFault("protocol", `The session's model failed to answer: ${reason}`);
    }
  }
}
