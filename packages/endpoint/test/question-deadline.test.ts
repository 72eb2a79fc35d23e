/**
 * A call's idle deadline does not run while the server waits on its client:
 * a user filling in an elicitation form may take longer than the deadline,
 * and the call must still get the server's answer (both eras, every
 * transport). The call's total bound still holds.
 */
import type { ClientHostHooks } from "@indus/contract";
import { ALL_BUT_DATE } from "@indus/testkit";
import { RELAY_SETUPS, firstText, relayHarness } from "./helpers/relay-harness";

jest.setTimeout(60_000);

const harness = relayHarness();

/** The call's idle deadline, and how long the "user" takes by the call's clock: longer than it. */
const IDLE_MS = 2_000;
const ANSWER_AFTER_MS = 3_000;
/** Real time the user's answer waits: past the deadline's first check (due `IDLE_MS` after the call began). */
const CHECKED_AFTER_MS = IDLE_MS + 500;

/**
 * A client whose user answers the form only after the call's idle deadline
 * has passed. The deadline reads `Date`, which the test owns: it moves only
 * while the user thinks, so the deadline sees the question take longer than
 * itself, and no pause of the machine before the question or after the
 * answer counts as idle time. The user answers once the deadline's timer
 * (real, due `IDLE_MS` after the call began) has looked.
 */
const slowUser: ClientHostHooks = {
  elicitModes: ["form"],
  elicit: async () => {
    jest.setSystemTime(Date.now() + ANSWER_AFTER_MS);
    await new Promise((resolve) => setTimeout(resolve, CHECKED_AFTER_MS));
    return { action: "accept", content: { name: "slow" } };
  },
};

afterEach(() => jest.useRealTimers());

describe.each(RELAY_SETUPS)("over %s in the %s era", (transport, protocol) => {
  it("gets the answer of a call whose question took longer than its idle deadline", async () => {
    const endpoint = await harness.connect([transport, protocol], { host: slowUser });
    jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.now() });
    const result = await endpoint.invoke("ask", {}, { relayTo: slowUser, timeoutMs: IDLE_MS });
    expect(JSON.parse(firstText(result))).toMatchObject({ action: "accept", content: { name: "slow" } });
  });
});
