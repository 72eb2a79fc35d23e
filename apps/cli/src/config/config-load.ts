/**
 * Resolving the MCP config the way every command needs it: an explicit
 * `--mcp` file that is missing, unreadable or not a config is a usage error
 * (exit 2); servers from another tool's project file wait for a one-time
 * approval (asked on a terminal, otherwise a diagnostic says how to give it);
 * `${input:id}` values are asked for once on a terminal, or the server is
 * refused with a diagnostic.
 */
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { approveProjectRows, type PendingApproval } from "@indus/deck/mcp-config";
import { resolveMcpConfig, type ResolvedMcpConfig } from "@indus/deck";
import { UsageError } from "../exit";

export interface ConfigLoadOptions {
  readonly cwd: string;
  readonly mcp?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Ask on the terminal (approval, inputs). Off for `--json`, pipes and CI. */
  readonly interactive?: boolean;
  /** Who answers an approval (the agent's one-key question); default: a `[y/N]` line on stderr. */
  readonly approve?: ProjectFileApprover;
}

/** `all`: this file and every other one pending. */
export type ApprovalAnswer = "yes" | "no" | "all";
export type ProjectFileApprover = (pending: PendingApproval) => Promise<ApprovalAnswer>;

const lineApprover: ProjectFileApprover = async (pending) => {
  process.stderr.write(pendingText(pending));
  const answer = await ask(`Start ${pending.names.length === 1 ? "it" : "them"} in ${pending.project}? [y/N] `);
  return /^y(es)?$/i.test(answer.trim()) ? "yes" : "no";
};

/** Ask about each pending file (or stop asking once one is answered "all"); true when any was approved. */
async function askApprovals(config: ResolvedMcpConfig, options: ConfigLoadOptions): Promise<boolean> {
  const approve = options.approve ?? lineApprover;
  let all = false;
  let approved = false;
  for (const pending of config.pendingApproval) {
    const answer: ApprovalAnswer = all ? "yes" : await approve(pending);
    if (answer === "no") continue;
    all ||= answer === "all";
    approveProjectRows(pending.project, [pending], options.env);
    approved = true;
  }
  return approved;
}

const FILE_LEVEL = new Set(["missing", "unreadable", "malformed", "unrecognized"]);

/** True when stdin and stderr are both terminals (someone can answer). */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

async function ask(question: string, secret = false): Promise<string> {
  // Readline redraws its own line: a visible question is its prompt, or the redraw erases it.
  if (secret) process.stderr.write(question);
  // A password is read with its echo dropped.
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!secret) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    return await rl.question(secret ? "" : question);
  } finally {
    rl.close();
    if (secret) process.stderr.write("\n");
  }
}

/** Explicit `--mcp` paths that cannot be read as a config: exit 2 with the reason. */
function refuseBadExplicitFiles(config: ResolvedMcpConfig): void {
  if (!config.explicit) return;
  const bad = config.diagnostics.filter((d) => FILE_LEVEL.has(d.kind) && d.row === undefined && d.severity === "error");
  if (bad.length > 0) throw new UsageError(bad.map((d) => `--mcp ${d.file}: ${d.message}`).join("\n"));
}

/** What a file waiting for approval would start, row by row, with what changed since it was approved. */
export function pendingText(pending: PendingApproval): string {
  const lines = [`${pending.file} (written by another tool) wants to start:`];
  for (const row of pending.rows) {
    lines.push(`  ${row.name} ${row.change === "new" ? "(new)" : "(changed since you approved it)"}`);
    for (const line of row.difference) lines.push(`    ${line}`);
  }
  return `${lines.join("\n")}\n`;
}

export async function loadConfig(options: ConfigLoadOptions): Promise<ResolvedMcpConfig> {
  const invocation = options.mcp ? { mcp: options.mcp } : {};
  let config = resolveMcpConfig(invocation, options.cwd, { env: options.env });
  refuseBadExplicitFiles(config);
  if (!options.interactive) return config;
  const again = await askApprovals(config, options);
  const inputs: Record<string, string> = {};
  if (again) config = resolveMcpConfig(invocation, options.cwd, { env: options.env });
  for (const input of config.pendingInputs) {
    inputs[input.id] = await ask(`${input.description ?? input.id} (for ${input.file}): `, input.password === true);
  }
  if (Object.keys(inputs).length > 0) config = resolveMcpConfig(invocation, options.cwd, { env: options.env, inputs });
  return config;
}
