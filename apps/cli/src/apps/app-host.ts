/**
 * MCP Apps (SEP-1865) in the agent. A tool whose listing names a `ui://`
 * view (`_meta.ui.resourceUri`) still answers the model and the terminal in
 * text; the host notes that it has a view, and `/app` (or `--apps browser`,
 * at once) opens it in the user's browser through the loopback page of
 * `app-server.ts`. What the view asks goes through indusr: its tool calls
 * name its own server's tools only (and only those open to apps), pass the
 * session's permission gate, and run on the mounted server; its reads stay
 * within its server's views. The loopback server closes with the session.
 */
import { randomUUID } from "node:crypto";
import { APP_VIEW_MIME_TYPE, isRecord, type JsonObject, type ToolBox, type ToolDescriptor } from "@indus/contract";
import type { AgentEvent } from "../agent/events";
import type { Style } from "../agent/render";
import type { PermissionGate } from "../agent/session/permission";
import { hasDisplay, openBrowser } from "../auth/open-browser";
import { VERSION } from "../version";
import { AppServer, type AppRequests } from "./app-server";
import { viewOf } from "./app-views";

interface AppView {
  readonly id: string;
  readonly index: number;
  /** The tool as the box names it, and the prefix its server's tools share (empty under as-is names). */
  readonly tool: string;
  readonly prefix: string;
  readonly uri: string;
  readonly input: JsonObject;
  readonly result: JsonObject;
  meta?: JsonObject;
}

export interface AppHostOptions {
  readonly box: () => ToolBox;
  readonly gate: PermissionGate;
  readonly print: (text: string) => void;
  readonly style: Style;
  /** `--apps browser`: open each view as soon as its tool answers. */
  readonly autoOpen: boolean;
  readonly env: NodeJS.ProcessEnv;
}

export class AppHost implements AppRequests {
  private readonly calls = new Map<string, { readonly name: string; readonly input: JsonObject }>();
  private readonly views: AppView[] = [];
  private server: Promise<AppServer> | undefined;

  constructor(private readonly options: AppHostOptions) {}

  /** Follows the session's events: a tool with a view that answered becomes an app the user can open. */
  observe(event: AgentEvent): void {
    if (event.type === "tool_call") {
      this.calls.set(event.id, { name: event.name, input: isRecord(event.input) ? (event.input as JsonObject) : {} });
      return;
    }
    if (event.type !== "tool_result" || event.refused !== undefined) return;
    const call = this.calls.get(event.id);
    this.calls.delete(event.id);
    const tool = this.descriptor(event.name);
    const view = tool && viewOf(tool);
    if (!call || !view) return;
    const index = this.views.length + 1;
    const separator = event.name.indexOf("__");
    this.views.push({
      id: randomUUID(),
      index,
      tool: event.name,
      prefix: separator > 0 ? event.name.slice(0, separator + 2) : "",
      uri: view.uri,
      input: call.input,
      result: { content: [{ type: "text", text: event.content }], isError: event.isError },
    });
    const { style } = this.options;
    this.options.print(style.dim(`▸ app ${index}: ${event.name} has a view (${view.uri}) · /app ${index} opens it`));
    if (this.options.autoOpen) void this.open(String(index));
  }

  /** `/app [n]`: open view n (default the latest) in the browser, printing its URL. */
  async open(which?: string): Promise<void> {
    const view = which === undefined ? this.views.at(-1) : this.views[Number(which) - 1];
    if (!view) {
      this.options.print(
        this.views.length === 0 ? "No app yet: a tool with an MCP App view has not answered." : `No app ${which}.`,
      );
      return;
    }
    this.server ??= AppServer.start(this, VERSION);
    const url = (await this.server).urlOf(view.id);
    this.options.print(`app ${view.index} (${view.tool}): ${url}`);
    if (hasDisplay(this.options.env)) await openBrowser(url);
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await (await server).close();
  }

  private descriptor(name: string): ToolDescriptor | undefined {
    return this.options
      .box()
      .descriptors()
      .find((tool) => tool.name === name);
  }

  private viewById(viewId: string): AppView {
    const view = this.views.find((candidate) => candidate.id === viewId);
    if (!view) throw new Error(`no app view ${viewId}`);
    return view;
  }

  async view(viewId: string): Promise<JsonObject | undefined> {
    const view = this.views.find((candidate) => candidate.id === viewId);
    if (!view) return undefined;
    const contents = (await this.read(viewId, view.uri))["contents"];
    const content = Array.isArray(contents)
      ? contents.find((item) => isRecord(item) && item["uri"] === view.uri)
      : undefined;
    if (!isRecord(content) || content["mimeType"] !== APP_VIEW_MIME_TYPE) {
      throw new Error(`${view.uri} is not an MCP App view (${APP_VIEW_MIME_TYPE})`);
    }
    const html =
      typeof content["text"] === "string"
        ? content["text"]
        : Buffer.from(typeof content["blob"] === "string" ? content["blob"] : "", "base64").toString("utf8");
    const ui = isRecord(content["_meta"]) ? content["_meta"]["ui"] : undefined;
    view.meta = isRecord(ui) ? ui : {};
    return {
      title: `${view.tool} · ${view.uri}`,
      html,
      ...(view.meta["csp"] !== undefined && { csp: view.meta["csp"] }),
      ...(view.meta["permissions"] !== undefined && { permissions: view.meta["permissions"] }),
      input: view.input,
      result: view.result,
    };
  }

  viewMeta(viewId: string): JsonObject | undefined {
    return this.views.find((candidate) => candidate.id === viewId)?.meta;
  }

  /** A call from the view: its own server's tool, open to apps, through the permission gate. */
  async call(viewId: string, name: string, args: JsonObject): Promise<JsonObject> {
    const view = this.viewById(viewId);
    const published = `${view.prefix}${name}`;
    const tool = this.descriptor(published);
    if (!tool || !(viewOf(tool)?.visibility.includes("app") ?? true) || (view.prefix !== "" && name.includes("__"))) {
      throw new Error(`the app may not call ${name}: its server offers no such tool to apps`);
    }
    const call = { id: `app-${randomUUID()}`, name: published, input: args };
    const signal = AbortSignal.timeout(10 * 60_000);
    const decision = await this.options.gate.check(call, tool.annotations?.readOnlyHint === true, false, signal);
    if (!decision.ok) return { content: [{ type: "text", text: decision.message }], isError: true };
    this.options.print(this.options.style.dim(`▸ app ${view.index} called ${published}`));
    const outcome = await this.options.box().runner.run(call, { signal });
    if (outcome.wire !== undefined) return outcome.wire;
    const text = outcome.content.map((block) => (block.type === "text" ? block.text : JSON.stringify(block.value)));
    return { content: text.map((line) => ({ type: "text", text: line })), isError: outcome.isError === true };
  }

  /** A read from the view: views of its own server only (its own URI, or one under the same `ui://` prefix). */
  async read(viewId: string, uri: string): Promise<JsonObject> {
    const view = this.viewById(viewId);
    const scope = view.prefix === "" ? view.uri : `ui://${view.prefix.slice(0, -2)}/`;
    if (uri !== view.uri && !uri.startsWith(scope)) throw new Error(`the app may not read ${uri}`);
    const catalog = this.options.box().catalog;
    if (!catalog) throw new Error("no MCP server is mounted");
    return catalog.readResource(uri);
  }
}
