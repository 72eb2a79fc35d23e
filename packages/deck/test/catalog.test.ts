import { PROFILES } from "@indus/deck/catalog";
import { isDeckFault } from "@indus/deck";
import {
  buildBuiltin,
  buildBuiltinsForProfile,
  builtinIds,
  capabilityCards,
  capabilityIds,
  capabilityIndex,
  cardProfiles,
  cardsForProfile,
  findCard,
  hasCapability,
  indexCapabilityCards,
  isReadOnlyMembership,
} from "@indus/deck/catalog";
import { deckContext } from "@indus/deck";

const BUILTINS = [
  "read",
  "ls",
  "grep",
  "find",
  "websearch",
  "webfetch",
  "todo_read",
  "write",
  "edit",
  "bash",
  "process",
  "todo_set",
];
const READ_ONLY = BUILTINS.slice(0, 7);
const MUTATING = BUILTINS.slice(7);
const APP = ["todo", "bg-process", "task", "saas-action", "memory", "enter_plan_mode", "exit_plan_mode"];

describe("catalog", () => {
  it("is built once: the same frozen array on every call", () => {
    const a = capabilityCards();
    expect(capabilityCards()).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it("lists the 12 built-ins in spec order, then the 7 app cards", () => {
    expect(capabilityIds()).toEqual([...BUILTINS, ...APP]);
    expect(builtinIds()).toEqual(BUILTINS);
  });

  it("derives the index, lookups and membership from the one list", () => {
    const index = capabilityIndex();
    expect(capabilityIndex()).toBe(index);
    expect(index.get("read" as never)).toBe(0);
    expect(index.get("exit_plan_mode" as never)).toBe(18);
    expect(hasCapability("bash")).toBe(true);
    expect(hasCapability("nope")).toBe(false);
    expect(findCard("grep")).toBe(capabilityCards()[2]);
    expect(findCard("nope")).toBeUndefined();
    expect([...cardProfiles().keys()]).toEqual(capabilityIds());
  });

  it("first occurrence wins on a duplicate id", () => {
    const index = indexCapabilityCards([{ id: "a" }, { id: "b" }, { id: "a" }] as never);
    expect(index.get("a" as never)).toBe(0);
    expect(index.size).toBe(2);
  });

  it("pins the profile inversion: read-only [authoring, survey], mutating [survey], app [all]", () => {
    const profiles = cardProfiles();
    for (const id of READ_ONLY) expect(profiles.get(id as never)).toEqual(["authoring", "survey"]);
    for (const id of MUTATING) expect(profiles.get(id as never)).toEqual(["survey"]);
    for (const id of APP) expect(profiles.get(id as never)).toEqual(["all"]);
  });

  it("selects by profile: authoring = read-only built-ins, survey = every built-in, all = everything", () => {
    expect(cardsForProfile("authoring").map((c) => c.id)).toEqual(READ_ONLY);
    expect(cardsForProfile("survey").map((c) => c.id)).toEqual(BUILTINS);
    expect(cardsForProfile("all").map((c) => c.id)).toEqual([...BUILTINS, ...APP]);
    expect(PROFILES).toEqual(["authoring", "survey", "all"]);
  });

  it("derives a built-in's readOnly from its authoring membership", () => {
    const ctx = deckContext("/tmp");
    for (const card of capabilityCards().slice(0, 12)) {
      const cap = card.build(ctx);
      expect(cap.name).toBe(card.id);
      expect(cap.readOnly).toBe(isReadOnlyMembership(card.profiles));
      expect(cap.readOnly).toBe(READ_ONLY.includes(card.id));
    }
  });

  it("builds every row with a name matching its id and an object schema", () => {
    const ctx = deckContext("/tmp");
    for (const card of capabilityCards()) {
      const cap = card.build(ctx);
      expect(cap.name).toBe(card.id);
      expect(cap.parameters.type).toBe("object");
      expect(cap.description.length).toBeGreaterThan(20);
      expect(card.title.length).toBeGreaterThan(0);
      expect(card.summary.length).toBeGreaterThan(0);
    }
  });

  it("marks the plan-mode cards read-only and the other app cards mutating", () => {
    const ctx = deckContext("/tmp");
    const readOnly = APP.filter((id) => findCard(id)?.build(ctx).readOnly);
    expect(readOnly).toEqual(["enter_plan_mode", "exit_plan_mode"]);
  });

  it("builds single built-ins and profile sets, refusing an unknown id with a typed fault", () => {
    const ctx = deckContext("/tmp");
    expect(buildBuiltin("grep", ctx).name).toBe("grep");
    expect(buildBuiltinsForProfile("authoring", ctx).map((c) => c.name)).toEqual(READ_ONLY);
    expect(buildBuiltinsForProfile("all", ctx).map((c) => c.name)).toEqual(BUILTINS);
    try {
      buildBuiltin("todo", ctx);
      throw new Error("expected a fault");
    } catch (error) {
      expect(isDeckFault(error)).toBe(true);
      expect((error as { kind: string }).kind).toBe("unknown-capability");
    }
  });
});
