/**
 * Plan mode: two read-only marker tools the conductor watches for (neither
 * flips a mode itself), and the plan-file helpers the exit handshake uses to
 * keep an approved plan under `<sessionDir>/plans/`.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Capability, CapabilityCard } from "../vocabulary";
import { capabilityId } from "../vocabulary";
import { ArgError, inputObject, reqString } from "../args";
import { defineCard, objectSchema } from "../card";

export const PLANS_DIRNAME = "plans";
const SLUG_MAX = 48;

export const ENTER_PLAN_PROSE =
  "Plan mode requested. Explore only: read, search and ask questions, but do not change files or run mutating commands. When the plan is ready, call exit_plan_mode with the full plan for the user to approve.";

/** The plan's first non-empty line as a file-safe slug (at most 48 chars), or "plan". */
export function planSlug(plan: string): string {
  const first = plan.split(/\r?\n/).find((line) => line.trim() !== "") ?? "";
  const slug = first
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, "");
  return slug === "" ? "plan" : slug;
}

export function planFilePath(sessionDir: string, slug: string): string {
  return path.join(sessionDir, PLANS_DIRNAME, `${slug}.md`);
}

let lastStamp = 0;

/** Monotonic epoch milliseconds: two plans in one millisecond still get distinct prefixes. */
function nextStamp(): number {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return lastStamp;
}

/** Writes `<sessionDir>/plans/<base36 time>-<slug>.md` and returns its path; never overwrites. */
export async function writePlan(sessionDir: string, plan: string): Promise<string> {
  await fs.mkdir(path.join(sessionDir, PLANS_DIRNAME), { recursive: true });
  const slug = planSlug(plan);
  for (;;) {
    const file = planFilePath(sessionDir, `${nextStamp().toString(36)}-${slug}`);
    try {
      await fs.writeFile(file, plan.endsWith("\n") ? plan : `${plan}\n`, { flag: "wx" });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/** The plan's text, or undefined when the file is missing or unreadable. */
export async function readPlan(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

export function buildEnterPlanModeCapability(): Capability {
  return defineCard({
    name: "enter_plan_mode",
    label: "Enter plan mode",
    readOnly: true,
    description:
      "Ask to switch to plan mode: explore and plan without changing anything, then present the plan with exit_plan_mode.",
    parameters: objectSchema({}),
    async run() {
      const marker = { enterPlanMode: true, applied: false };
      return {
        content: [
          { type: "json", value: marker },
          { type: "text", text: ENTER_PLAN_PROSE },
        ],
        structuredContent: marker,
      };
    },
  });
}

export function buildExitPlanModeCapability(): Capability {
  return defineCard({
    name: "exit_plan_mode",
    label: "Exit plan mode",
    readOnly: true,
    description: "Present the finished plan (Markdown) to the user for approval and leave plan mode once approved.",
    parameters: objectSchema({ plan: { type: "string", description: "The complete plan, in Markdown." } }, ["plan"]),
    async run(input) {
      const plan = reqString(inputObject(input), "plan");
      if (plan.trim() === "") throw new ArgError('"plan" must not be blank');
      const marker = { exitPlan: true, plan };
      return { content: [{ type: "json", value: marker }], structuredContent: marker };
    },
  });
}

export function enterPlanModeCard(): CapabilityCard {
  return {
    id: capabilityId("enter_plan_mode"),
    title: "Enter plan mode",
    summary: "Read-only marker: { enterPlanMode: true, applied: false } plus explore-only guidance.",
    profiles: ["all"],
    build: () => buildEnterPlanModeCapability(),
  };
}

export function exitPlanModeCard(): CapabilityCard {
  return {
    id: capabilityId("exit_plan_mode"),
    title: "Exit plan mode",
    summary: "Read-only marker: { exitPlan: true, plan } for the conductor's approval prompt.",
    profiles: ["all"],
    build: () => buildExitPlanModeCapability(),
  };
}
