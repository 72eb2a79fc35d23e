/**
 * A call's idle deadline does not run while the server waits on its client:
 * a user filling in an elicitation form may take longer than the deadline,
 * and the call must still get the server's answer (both eras, every
 * transport). The call's total bound still holds.
 */
import type { ClientHostHooks } from "@indus/contract";
import { RELAY_SETUPS, firstText, relayHarness } from "./helpers/relay-harness";

jest.setTimeout(60_000);

const harness = relayHarness();

/** The call's idle deadline, and how long the "user" takes: longer than it. */
const IDLE_MS = 2_000;
const ANSWER_AFTER_MS = 3_000;

/** A client whose user answers the form only after the call's idle deadline has passed. */
const slowUser: ClientHostHooks = {
  elicitModes: ["form"],
  elicit: async () => {
    await new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS));
    return { action: "accept", content: { name: "slow" } };
  },
};

describe.each(RELAY_SETUPS)("over %s in the %s era", (transport, protocol) => {
  it("gets the answer of a call whose question took longer than its idle deadline", async () => {
    const endpoint = await harness.connect([transport, protocol], { host: slowUser });
    const result = await endpoint.invoke("ask", {}, { relayTo: slowUser, timeoutMs: IDLE_MS });
    expect(JSON.parse(firstText(result))).toMatchObject({ action: "accept", content: { name: "slow" } });
  });
});
