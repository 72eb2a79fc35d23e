/**
 * The sub-agents `task` can start, kept apart from the runner so listing them
 * (`indusr tools`) does not load the agent session.
 */
import type { DelegateRunner } from "@indus/deck";

export const SUB_AGENTS = [
  { name: "explore", description: "read-only: reads, searches and fetches, changes nothing (the default)" },
  {
    name: "general",
    description: "may also edit files and run commands; each such call goes through the user's permission gate",
  },
] as const;

/** For commands that list the agent's tools without running an agent: the roster, and no runs. */
export const listingOnlyDelegate: DelegateRunner = {
  listAgents: () => SUB_AGENTS,
  run: () => Promise.resolve({ ok: false, output: "Sub-agents run only inside the agent (indusr -p, or a session)." }),
};
