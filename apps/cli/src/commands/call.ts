/**
 * `indusr call <tool> [json-args]`: run one tool once. Arguments that fail the
 * tool's schema are refused before the call, naming the failing path.
 * Exit 0 on success, 1 when the tool reports an error, 2 on usage errors.
 */
import fs from "node:fs";
import Ajv from "ajv";
import type { ServerConfig, ToolDescriptor, ToolOutcome, ToolRunner } from "@indus/contract";
import { EXIT, UsageError } from "../exit";
import { withDeck, type DeckFlags } from "./shared";
import { editDistance } from "../edit-distance";
import { settleBeforeTeardown } from "../teardown";
import { callProgress } from "./call-progress";
import { writeText } from "./text-output";

interface CallFlags extends DeckFlags {
  readonly argsFile?: string;
}

function readArgs(json: string | undefined, file: string | undefined): Record<string, unknown> {
  if (json !== undefined && file !== undefined)
    throw new UsageError("give the arguments inline or with --args-file, not both");
  let text = json ?? "{}";
  let where = "the arguments";
  if (file !== undefined) {
    where = file === "-" ? "stdin" : file;
    try {
      text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read --args-file ${file}: ${(error as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} are not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`${where} must be a JSON object, like '{"path": "README.md"}'`);
  }
  return value as Record<string, unknown>;
}

function suggest(name: string, names: readonly string[]): string[] {
  const lower = name.toLowerCase();
  return names
    .map((candidate) => ({
      candidate,
      score: candidate.toLowerCase().includes(lower) ? 0 : editDistance(lower, candidate.toLowerCase()),
    }))
    .filter((x) => x.score <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.score - b.score)
    .slice(0, 3)
    .map((x) => x.candidate);
}

/** Validation errors as `path: message` lines, from the tool's own schema. */
export function schemaProblems(descriptor: ToolDescriptor, args: unknown): string[] {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  let validate;
  try {
    validate = ajv.compile(descriptor.parameters);
  } catch {
    return []; // A schema we cannot compile is the server's to enforce.
  }
  if (validate(args)) return [];
  return (validate.errors ?? []).map((e) => {
    const missing = e.keyword === "required" ? `/${(e.params as { missingProperty: string }).missingProperty}` : "";
    const extra =
      e.keyword === "additionalProperties" ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : "";
    const at = `${e.instancePath}${missing}${extra}` || "/";
    const message =
      e.keyword === "required"
        ? "is required"
        : e.keyword === "additionalProperties"
          ? "is not allowed"
          : (e.message ?? "is invalid");
    return `${at} ${message}`;
  });
}

async function printOutcome(outcome: ToolOutcome): Promise<void> {
  const out = outcome.isError ? process.stderr : process.stdout;
  for (const block of outcome.content) {
    if (block.type === "text") {
      // Apart from its newline, in slices: a large result is never copied whole (see `writeText`).
      await writeText(out, block.text);
      if (!block.text.endsWith("\n")) out.write("\n");
    } else out.write(`${JSON.stringify(block.value, null, 2)}\n`);
  }
  if (outcome.content.length === 0 && outcome.structuredContent)
    out.write(`${JSON.stringify(outcome.structuredContent, null, 2)}\n`);
}

const STOPS = ["SIGINT", "SIGTERM"] as const;

/** Cards that reach every mounted server (`saas-action` discovers and runs their tools). */
const FLEET_CARDS = new Set(["saas-action", "list_resources", "read_resource"]);

/**
 * The servers a one-shot call of `tool` must mount so it resolves exactly as
 * `indusr tools` lists it: every server whose id prefixes the name (two can
 * claim one name, `a` + `b__c` and `a__b` + `c`, and the fleet settles that by
 * config order, so both must be there), every server for a card that works
 * across them, and none for a built-in (a one-shot call waits for no server).
 */
export function serversFor(tool: string): (servers: readonly ServerConfig[]) => readonly ServerConfig[] {
  return (servers) => (FLEET_CARDS.has(tool) ? servers : servers.filter((server) => tool.startsWith(`${server.id}__`)));
}

export async function callCommand(tool: string, json: string | undefined, flags: CallFlags): Promise<number> {
  const args = readArgs(json, flags.argsFile);
  return withDeck(
    flags,
    "all",
    async (deck) => {
      const descriptors = deck.box.descriptors();
      const descriptor = descriptors.find((d) => d.name === tool);
      if (!descriptor) {
        const close = suggest(
          tool,
          descriptors.map((d) => d.name),
        );
        const withheld = deck.trust?.whyWithheld(tool);
        if (withheld !== undefined) {
          // Not a usage error: the tool exists, and the trust gate holds it back.
          process.stderr.write(`indusr: ${tool}: ${withheld}\n`);
          return EXIT.failed;
        }
        throw new UsageError(
          `no tool named "${tool}"${close.length > 0 ? `; did you mean ${close.join(", ")}?` : ""} (see \`indusr tools\`)`,
        );
      }
      const problems = schemaProblems(descriptor, args);
      if (problems.length > 0) {
        throw new UsageError(
          `arguments for ${tool} do not match its schema:\n${problems.map((p) => `  ${p}`).join("\n")}`,
        );
      }
      return runOnce(deck.box.runner, tool, args, flags.json === true);
    },
    { selectServers: serversFor(tool), offerDeferred: true },
  );
}

/**
 * Runs the call, showing its progress on stderr, and prints its outcome.
 * Ctrl-C or a stop cancels it on its server (`notifications/cancelled`, or a
 * task's `tasks/cancel`); the signal's teardown waits briefly for the aborted
 * call, so that cancel reaches the server before indusr exits.
 */
async function runOnce(
  runner: ToolRunner,
  tool: string,
  args: Record<string, unknown>,
  json: boolean,
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  for (const signal of STOPS) process.once(signal, onSignal);
  const running = runner.run(
    { id: "cli-call", name: tool, input: args },
    { signal: controller.signal, ...callProgress((line) => process.stderr.write(`${line}\n`)) },
  );
  const unregister = settleBeforeTeardown(() => running);
  try {
    const outcome = await running;
    // The server's own copy of the result (`wire`, for gateways) would only repeat the content.
    const { wire: _wire, ...shown } = outcome;
    if (json) process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    else await printOutcome(outcome);
    return outcome.isError ? EXIT.failed : EXIT.ok;
  } finally {
    for (const signal of STOPS) process.off(signal, onSignal);
    unregister();
  }
}
