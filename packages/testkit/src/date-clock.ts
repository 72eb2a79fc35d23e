/**
 * Jest's fake clock for `Date` alone: `jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE] })`.
 * For a test whose product measures time with `Date.now()` (a token's expiry,
 * a list's `ttlMs`) while it talks to real processes over real timers and
 * I/O: the test moves the clock (`jest.setSystemTime`,
 * `jest.advanceTimersByTime`), so how much real time passes between two of
 * its steps on a busy machine changes nothing.
 */
export const ALL_BUT_DATE = [
  "hrtime",
  "nextTick",
  "performance",
  "queueMicrotask",
  "requestAnimationFrame",
  "cancelAnimationFrame",
  "requestIdleCallback",
  "cancelIdleCallback",
  "setImmediate",
  "clearImmediate",
  "setInterval",
  "clearInterval",
  "setTimeout",
  "clearTimeout",
] as const;

/**
 * Jest's fake clock for timers, `Date` and `performance`, with the event loop
 * real: `jest.useFakeTimers({ doNotFake: [...REAL_EVENT_LOOP] })`. Promise
 * jobs, `nextTick` and `setImmediate` still run, so streams and real I/O go
 * on while the test moves the product's clock.
 */
export const REAL_EVENT_LOOP = ["nextTick", "queueMicrotask", "setImmediate", "clearImmediate"] as const;
