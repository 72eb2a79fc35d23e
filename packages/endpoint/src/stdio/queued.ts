/**
 * What `ProcessStdioTransport.send` gives when the line was queued at once:
 * one settled promise, so a sender that need not wait (a raw call) can tell
 * and skip the reaction job a `.catch` on it would queue.
 */
export const QUEUED: Promise<void> = Promise.resolve();
