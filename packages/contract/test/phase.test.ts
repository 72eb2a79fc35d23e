import { ENDPOINT_PHASES, isTerminalPhase, isUsablePhase } from "@indus/contract";

describe("endpoint phases", () => {
  it("lists the six phases", () => {
    expect(ENDPOINT_PHASES).toEqual(["idle", "connecting", "ready", "closing", "closed", "faulted"]);
  });

  it("only ready is usable", () => {
    expect(ENDPOINT_PHASES.filter(isUsablePhase)).toEqual(["ready"]);
  });

  it("closed and faulted are terminal", () => {
    expect(ENDPOINT_PHASES.filter(isTerminalPhase)).toEqual(["closed", "faulted"]);
  });
});
