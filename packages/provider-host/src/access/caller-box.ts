/**
 * A box as one caller may see and use it: only the tools, prompts and
 * resources its grant allows are listed, and a call, read, prompt get,
 * completion or subscription outside them fails as if the item did not
 * exist (a caller learns nothing of what it may not use). List changes are
 * passed on only when the caller's own view changed (tools here, prompts
 * and resources in `own-changes`). Views are shared by
 * every caller holding the same grant.
 */
import { protocolFault } from "@indus/contract";
import type { GatewayCallOptions, GatewayCatalog, JsonObject, ToolBox, ToolDescriptor } from "@indus/contract";
import type { Grant } from "./access-grants";
import { ownCatalogChanges } from "./own-changes";

const views = new WeakMap<ToolBox, Map<string, ToolBox>>();
const grantOfView = new WeakMap<ToolBox, Grant>();

/** Whether the caller a view was made for may hear from mounted server `server` (its logs). */
export function hearsServer(view: ToolBox, server: string): boolean {
  return grantOfView.get(view)?.server(server) ?? true;
}

/** Whether the caller a view was made for may read `uri` (a box that is no view: anyone may). */
export function canRead(view: ToolBox, uri: string): boolean {
  return grantOfView.get(view)?.resource(uri) ?? true;
}

/** The box as `grant` allows it: the box itself for a grant of everything. */
export function callerBox(box: ToolBox, grant: Grant): ToolBox {
  if (grant.everything) return box;
  let byGrant = views.get(box);
  if (byGrant === undefined) {
    byGrant = new Map();
    views.set(box, byGrant);
  }
  let view = byGrant.get(grant.key);
  if (view === undefined) {
    view = filteredBox(box, grant);
    byGrant.set(grant.key, view);
    grantOfView.set(view, grant);
  }
  return view;
}

function filteredBox(box: ToolBox, grant: Grant): ToolBox {
  let listedFrom: readonly ToolDescriptor[] | undefined;
  let listed: readonly ToolDescriptor[] = [];
  const descriptors = () => {
    const all = box.descriptors();
    // Boxes hand out the same list while their tools stand: filter each list once.
    if (all !== listedFrom) {
      listedFrom = all;
      listed = all.filter((descriptor) => grant.tool(descriptor.name));
    }
    return listed;
  };
  const view: ToolBox = {
    descriptors,
    runner: {
      run: (call, options) =>
        grant.tool(call.name)
          ? box.runner.run(call, options)
          : Promise.resolve({
              callId: call.id,
              isError: true,
              content: [{ type: "text", text: `Unknown tool: ${call.name}` }],
            }),
    },
    ...(box.onDescriptorsChanged !== undefined && {
      onDescriptorsChanged: (listener: () => void) => onOwnChange(box, descriptors, listener),
    }),
    ...(box.catalog !== undefined && { catalog: filteredCatalog(box.catalog, grant) }),
    whyUnknown: (name) => (grant.tool(name) ? box.whyUnknown?.(name) : undefined),
  };
  return view;
}

/** Tells `listener` of the box's tool changes that changed the filtered list. */
function onOwnChange(box: ToolBox, descriptors: () => readonly ToolDescriptor[], listener: () => void): () => void {
  let names = namesOf(descriptors());
  return box.onDescriptorsChanged!(() => {
    const now = namesOf(descriptors());
    if (now === names) return;
    names = now;
    listener();
  });
}

function namesOf(descriptors: readonly ToolDescriptor[]): string {
  return descriptors.map((descriptor) => `${descriptor.name}\n${descriptor.description}`).join("\n\n");
}

function filteredCatalog(catalog: GatewayCatalog, grant: Grant): GatewayCatalog {
  const allowed = (key: string) => (items: readonly JsonObject[]) =>
    items.filter((item) => {
      const name = item[key];
      return typeof name === "string" && (key === "name" ? grant.prompt(name) : grant.resource(name));
    });
  const resources = allowed("uri");
  const templates = allowed("uriTemplate");
  const prompts = allowed("name");
  const filtered: GatewayCatalog = {
    listResources: async (options) => resources(await catalog.listResources(options)),
    listResourceTemplates: async (options) => templates(await catalog.listResourceTemplates(options)),
    listPrompts: async (options) => prompts(await catalog.listPrompts(options)),
    readResource: (uri, options) =>
      grant.resource(uri) ? catalog.readResource(uri, options) : Promise.reject(unknownResource(uri)),
    getPrompt: (name, args, options) =>
      grant.prompt(name) ? catalog.getPrompt(name, args, options) : Promise.reject(unknownPrompt(name)),
  };
  Object.assign(filtered, optionalMembers(catalog, grant));
  if (catalog.onChanged !== undefined) filtered.onChanged = ownCatalogChanges(catalog, filtered);
  return filtered;
}

/** The catalog's optional members, each checked against the grant. */
function optionalMembers(catalog: GatewayCatalog, grant: Grant): Partial<GatewayCatalog> {
  const members: { -readonly [K in keyof GatewayCatalog]?: GatewayCatalog[K] } = {};
  if (catalog.complete !== undefined) {
    members.complete = (params: JsonObject, options?: GatewayCallOptions) =>
      refAllowed(params, grant) ? catalog.complete!(params, options) : Promise.reject(unknownRef(params));
  }
  if (catalog.subscribe !== undefined) {
    members.subscribe = (uri: string, options?: GatewayCallOptions) =>
      grant.resource(uri) ? catalog.subscribe!(uri, options) : Promise.reject(unknownResource(uri));
  }
  if (catalog.unsubscribe !== undefined) members.unsubscribe = (uri, options) => catalog.unsubscribe!(uri, options);
  // A task id is bound to the caller who created the task (see `task-relay`): who holds one may follow it.
  if (catalog.taskRequest !== undefined) members.taskRequest = catalog.taskRequest.bind(catalog);
  if (catalog.onResourceUpdated !== undefined) {
    members.onResourceUpdated = (listener) =>
      catalog.onResourceUpdated!((uri) => {
        if (grant.resource(uri)) listener(uri);
      });
  }
  if (catalog.setLogLevel !== undefined) members.setLogLevel = (level, options) => catalog.setLogLevel!(level, options);
  if (catalog.onLog !== undefined) {
    members.onLog = (listener) =>
      catalog.onLog!((entry) => {
        if (grant.server(entry.server)) listener(entry);
      });
  }
  if (catalog.notifyRootsChanged !== undefined) members.notifyRootsChanged = () => catalog.notifyRootsChanged!();
  // No `unlistedTool`: a caller with a partial grant never reaches a server by a name the gateway does not list.
  return members;
}

/** `completion/complete`'s `ref`: a prompt by name or a resource template by URI. */
function refAllowed(params: JsonObject, grant: Grant): boolean {
  const ref = params["ref"] as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") return grant.prompt(ref.name);
  if (ref?.type === "ref/resource" && typeof ref.uri === "string") return grant.resource(ref.uri);
  return false;
}

function unknownResource(uri: string) {
  return protocolFault("protocol", `Resource not found: ${uri}`);
}

function unknownPrompt(name: string) {
  return protocolFault("protocol", `Unknown prompt: ${name}`);
}

function unknownRef(params: JsonObject) {
  const ref = params["ref"] as { name?: unknown; uri?: unknown } | undefined;
  const named = typeof ref?.name === "string" ? ref.name : typeof ref?.uri === "string" ? ref.uri : "(none)";
  return protocolFault("protocol", `Unknown completion reference: ${named}`);
}
