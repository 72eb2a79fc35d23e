/**
 * The host's hooks as the SDK client sees them: the capabilities the client
 * declares (one per hook the host gives) and the handlers for the matching
 * server→client requests. The v2 client answers a 2026-era `input_required`
 * result through these same handlers, so both eras reach the host one way.
 */
import type { ClientHostHooks, JsonObject } from "@indus/contract";
import type { Client, ClientCapabilities } from "@modelcontextprotocol/client";

export function clientCapabilities(host: ClientHostHooks | undefined): ClientCapabilities {
  if (!host) return {};
  return {
    ...(host.elicit ? { elicitation: { form: {} } } : {}),
    ...(host.createMessage ? { sampling: {} } : {}),
    ...(host.listRoots ? { roots: {} } : {}),
  };
}

/** Route the client's server→client requests for `server` to the host's hooks. */
export function registerHostHandlers(client: Client, server: string, host: ClientHostHooks | undefined): void {
  if (!host) return;
  const { elicit, createMessage, listRoots } = host;
  if (elicit) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const answer = await elicit(server, request.params as unknown as JsonObject);
      return answer.action === "accept"
        ? { action: "accept", content: answer.content as Record<string, string | number | boolean | string[]> }
        : { action: answer.action };
    });
  }
  if (createMessage) {
    client.setRequestHandler("sampling/createMessage", async (request) => {
      return (await createMessage(server, request.params as unknown as JsonObject)) as never;
    });
  }
  if (listRoots) {
    client.setRequestHandler("roots/list", async () => ({ roots: [...(await listRoots(server))] }));
  }
}
