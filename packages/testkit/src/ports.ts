import net from "node:net";

/**
 * Ports handed out by `freePort`: below Linux's ephemeral range (32768 and
 * up), from which every outgoing connection takes its local port. A port the
 * kernel gave out for `listen(0)` and released can be taken by another test's
 * connection before the process told to use it listens (EADDRINUSE).
 */
const PORTS_FROM = 20_000;
const PORTS_COUNT = 12_000;
/**
 * Jest workers running at once, each given its own share of the range: a port
 * is free when handed out but only used later, so two test files running side
 * by side must never draw the same one (a gateway would then answer where a
 * proxy was expected, and the proxy exit unseen).
 */
const WORKER_SHARES = 4;

/** Ports this process handed out: a second draw of one of them is refused. */
const handedOut = new Set<number>();

/** A port free on loopback now (for a process that must be told its port up front), never handed out before here. */
export async function freePort(): Promise<number> {
  const share = portShare();
  for (;;) {
    const port = share.from + Math.floor(Math.random() * share.count);
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
}

/** This Jest worker's part of the range (the whole range outside Jest). */
export function portShare(workerId = process.env.JEST_WORKER_ID): { from: number; count: number } {
  const worker = Number(workerId);
  if (!Number.isInteger(worker) || worker < 1) return { from: PORTS_FROM, count: PORTS_COUNT };
  const count = Math.floor(PORTS_COUNT / WORKER_SHARES);
  return { from: PORTS_FROM + ((worker - 1) % WORKER_SHARES) * count, count };
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
