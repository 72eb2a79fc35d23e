/**
 * `provisionDeck`: the single data-driven assembler. It selects the catalog
 * rows admitting the profile, builds each against the context (with a default
 * read state when the host injected none, so `read` and `edit` share one),
 * folds the checkpoint wrapper around `write`/`edit`, and returns a `ToolDeck`.
 */
import type { CapabilityCard, DeckContext } from "./vocabulary";
import type { Profile } from "./vocabulary";
import { DeckFault, PROFILES, isProfile } from "./vocabulary";
import { cardsForProfile } from "./catalog";
import { maybeWrapCheckpoint } from "./checkpoint";
import { MemoryReadState } from "./read-state";
import { DeckSession } from "./session";
import { ToolDeck } from "./tool-deck";

/** The catalog rows a deck of this profile is built from. */
export function cardsForDeckProfile(profile: Profile): CapabilityCard[] {
  return cardsForProfile(profile);
}

export function provisionDeck(profile: Profile, ctx: DeckContext): ToolDeck {
  if (!isProfile(profile)) {
    throw new DeckFault(
      "unknown-capability",
      `unknown profile "${String(profile)}": use one of ${PROFILES.join(", ")}`,
    );
  }
  const readState = ctx.framework.readState ?? new MemoryReadState();
  const bound: DeckContext = { ...ctx, framework: { ...ctx.framework, readState } };
  const caps = cardsForDeckProfile(profile).map((card) => {
    let cap;
    try {
      cap = card.build(bound);
    } catch (error) {
      throw new DeckFault("build-failed", `building "${card.id}" failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return maybeWrapCheckpoint(cap, ctx.framework.checkpoint);
  });
  return new ToolDeck([{ kind: "fixed", caps }], bound, new DeckSession(readState));
}
