/**
 * A tool's MCP App view (SEP-1865) is named in its listing: `_meta.ui.resourceUri`,
 * and the older flat `_meta["ui/resourceUri"]` servers still send beside it.
 * Under prefixed names the catalog publishes every `ui://` view under its
 * server (`scoped-uris.ts`), so the tool's references are published the same
 * way: each one a client reads through the gateway is the view the server
 * meant. Nothing else of the tool changes.
 */
import { isRecord, type JsonObject } from "@indus/contract";
import { scopeUri } from "./scoped-uris";

const FLAT_VIEW_KEY = "ui/resourceUri";

/** `wire` with its view references under `server`; the same object when it names no view. */
export function withPublishedViews(server: string, wire: JsonObject): JsonObject {
  const meta = wire["_meta"];
  if (!isRecord(meta)) return wire;
  const ui = meta["ui"];
  const view = isRecord(ui) ? ui["resourceUri"] : undefined;
  const flat = meta[FLAT_VIEW_KEY];
  if (typeof view !== "string" && typeof flat !== "string") return wire;
  const published: JsonObject = { ...meta };
  if (isRecord(ui) && typeof view === "string") published["ui"] = { ...ui, resourceUri: scopeUri(server, view) };
  if (typeof flat === "string") published[FLAT_VIEW_KEY] = scopeUri(server, flat);
  return { ...wire, _meta: published };
}
