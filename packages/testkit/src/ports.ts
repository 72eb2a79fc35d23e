import net from "node:net";

/**
 * Ports handed out by `freePort`: below Linux's ephemeral range (32768 and
 * up), from which every outgoing connection takes its local port. A port the
 * kernel gave out for `listen(0)` and released can be taken by another test's
 * connection before the process told to use it listens (EADDRINUSE).
 */
const PORTS_FROM = 20_000;
const PORTS_COUNT = 12_000;

/** A port free on loopback now (for a process that must be told its port up front). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORTS_FROM + Math.floor(Math.random() * PORTS_COUNT);
    if (await bindable(port)) return port;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
