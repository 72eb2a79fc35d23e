/**
 * The host's hooks as the SDK client sees them: the capabilities the client
 * declares (one per hook the endpoint's own host gives, elicitation in the
 * modes it names) and the handlers for the matching server→client requests.
 * Each handler asks the `PeerRouter` which client answers (the calling
 * client in a gateway, else the host). The v2 client answers a 2026-era
 * `input_required` result through these same handlers, so both eras reach
 * the clients one way.
 */
import type { ClientHostHooks, JsonObject } from "@indus/contract";
import { ProtocolError, type Client, type ClientCapabilities } from "@modelcontextprotocol/client";
import { elicitModes, type PeerRouter } from "./peer-routing";

/**
 * What a client with these hooks declares. Form elicitation asks the SDK to
 * fill in the schema's defaults the user left out of an accepted answer
 * (SEP-1034); roots include `listChanged` so `notifyRootsChanged` may be sent.
 */
export function clientCapabilities(host: ClientHostHooks | undefined): ClientCapabilities {
  if (!host) return {};
  const modes = host.elicit ? elicitModes(host) : [];
  const elicitation = {
    ...(modes.includes("form") ? { form: { applyDefaults: true } } : {}),
    ...(modes.includes("url") ? { url: {} } : {}),
  };
  return {
    ...(Object.keys(elicitation).length > 0 ? { elicitation } : {}),
    ...(host.createMessage ? { sampling: {} } : {}),
    ...(host.listRoots ? { roots: { listChanged: true } } : {}),
  };
}

/**
 * What one call declares in the 2026 era (capabilities travel per request
 * there): what its client can answer, within what the endpoint's host
 * declared for the connection (only those requests have a handler here). A
 * server asking for more refuses the call itself, with its own -32021 error.
 */
export function callCapabilities(peer: ClientHostHooks, ambient: ClientHostHooks | undefined): ClientCapabilities {
  if (!ambient) return {};
  const modes = peer.elicit && ambient.elicit ? elicitModes(peer).filter((m) => elicitModes(ambient).includes(m)) : [];
  return clientCapabilities({
    ...(modes.length > 0 ? { elicit: peer.elicit, elicitModes: modes } : {}),
    ...(peer.createMessage && ambient.createMessage ? { createMessage: peer.createMessage } : {}),
    ...(peer.listRoots && ambient.listRoots ? { listRoots: peer.listRoots } : {}),
  });
}

/** A chosen client, or the error the router answers the server with. */
function chosen(choice: ClientHostHooks | ProtocolError): ClientHostHooks {
  if (choice instanceof ProtocolError) throw choice;
  return choice;
}

/** Route the client's server→client requests for `server`, for each capability the host declared. */
export function registerHostHandlers(
  client: Client,
  server: string,
  host: ClientHostHooks | undefined,
  router: PeerRouter,
): void {
  const declared = clientCapabilities(host);
  if (declared.elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as unknown as JsonObject;
      const mode = params["mode"] === "url" ? "url" : "form";
      const answer = await chosen(router.choose({ kind: "elicit", mode })).elicit!(server, params);
      return answer.action === "accept"
        ? { action: "accept", content: answer.content as Record<string, string | number | boolean | string[]> }
        : { action: answer.action };
    });
  }
  if (declared.sampling) {
    client.setRequestHandler("sampling/createMessage", async (request) => {
      const host = chosen(router.choose({ kind: "createMessage" }));
      return (await host.createMessage!(server, request.params as unknown as JsonObject)) as never;
    });
  }
  if (declared.roots) {
    client.setRequestHandler("roots/list", async () => {
      const host = chosen(router.choose({ kind: "listRoots" }));
      return { roots: [...(await host.listRoots!(server))] };
    });
  }
}
