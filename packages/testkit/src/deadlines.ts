/**
 * The deadline a test gives a product wait (a server's start-up, a listing, a
 * call) when how long it takes is not what the test is about: past any test's
 * ceiling, so a starved machine fails the test at Jest's ceiling naming the
 * wait, never the product first with a timeout fault in place of the result.
 */
export const PAST_THE_CEILING_MS = 600_000;

/** A server config's three deadlines, each past any test's ceiling (a row's own value wins where set). */
export const UNHURRIED_DEADLINES = {
  startupTimeoutMs: PAST_THE_CEILING_MS,
  listTimeoutMs: PAST_THE_CEILING_MS,
  toolTimeoutMs: PAST_THE_CEILING_MS,
} as const;
