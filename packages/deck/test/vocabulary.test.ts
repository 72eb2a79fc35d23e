import { DECK_FAULT_KINDS, DeckFault, PROFILES, capabilityId, isDeckFault, isProfile } from "../src/vocabulary";

describe("deck vocabulary", () => {
  it("mints capability ids only from provider-safe names", () => {
    expect(capabilityId("read")).toBe("read");
    expect(capabilityId("bg-process")).toBe("bg-process");
    expect(capabilityId("github__create_issue")).toBe("github__create_issue");
    expect(() => capabilityId("")).toThrow(DeckFault);
    expect(() => capabilityId("has space")).toThrow(/"has space" is not a valid capability id/);
    try {
      capabilityId("x".repeat(65));
    } catch (error) {
      expect(isDeckFault(error) && error.kind).toBe("unknown-capability");
    }
  });

  it("has three profiles", () => {
    expect(PROFILES).toEqual(["authoring", "survey", "all"]);
    expect(isProfile("survey")).toBe(true);
    expect(isProfile("nope")).toBe(false);
  });

  it("has four deck fault kinds and a guard", () => {
    expect(DECK_FAULT_KINDS).toEqual(["unknown-capability", "build-failed", "bridge", "backend"]);
    const fault = new DeckFault("backend", "no memory store", { cause: 1 });
    expect(isDeckFault(fault)).toBe(true);
    expect(fault.cause).toBe(1);
    expect(isDeckFault(new Error("x"))).toBe(false);
  });

  it("brands DeckFault so a second installed copy recognises it", () => {
    expect(DeckFault.isInstance(new DeckFault("backend", "x"))).toBe(true);
    expect(DeckFault.isInstance(new Error("x"))).toBe(false);
    class ForeignFault extends Error {}
    Object.defineProperty(ForeignFault.prototype, Symbol.for("indus.fault.DeckFault"), { value: true });
    expect(DeckFault.isInstance(new ForeignFault("elsewhere"))).toBe(true);
  });
});
