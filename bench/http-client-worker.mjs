// A worker thread holding a share of the bench's concurrent clients, so the
// clients are not held to one thread (the SDK client costs about as much CPU
// per call as a gateway). Messages from the main thread:
//   { kind: "connect", path, url, era, tool, count, headers? }  -> { kind: "connected" }
//   { kind: "round", path, calls }                     -> { kind: "done", resent }
//   { kind: "close" }                                  -> { kind: "closed" }
import { parentPort } from "node:worker_threads";
import { connectMany, echo, resent } from "./http-clients.mjs";

const paths = new Map();

async function handle(message) {
  switch (message.kind) {
    case "connect": {
      const clients = await connectMany(new URL(message.url), message.era, message.count, message.headers);
      paths.set(message.path, { clients, tool: message.tool });
      await Promise.all(clients.map((client, index) => echo(client, message.tool, `w${index}`)));
      return { kind: "connected" };
    }
    case "round": {
      const { clients, tool } = paths.get(message.path);
      const before = resent.count;
      await Promise.all(
        clients.map(async (client, index) => {
          for (let n = 0; n < message.calls; n++) await echo(client, tool, `c${index}-${n}`);
        }),
      );
      return { kind: "done", resent: resent.count - before };
    }
    case "close":
      await Promise.all(
        [...paths.values()].flatMap(({ clients }) => clients.map((client) => client.close().catch(() => {}))),
      );
      return { kind: "closed" };
  }
  throw new Error(`unknown message ${JSON.stringify(message)}`);
}

parentPort.on("message", (message) => {
  handle(message).then(
    (reply) => parentPort.postMessage(reply),
    (error) => parentPort.postMessage({ kind: "failed", error: String(error?.stack ?? error) }),
  );
});
