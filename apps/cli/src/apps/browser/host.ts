/**
 * The browser side of `/app` (bundled on its own into dist/app-host.js): the
 * page hosts one MCP App view in a sandbox frame on another origin, with the
 * ext-apps host bridge (`AppBridge`). Everything the view asks of its server
 * (a tool call, a resource read) goes back to indusr, which runs it through
 * its permission gate and the mounted server; the page holds no MCP
 * connection of its own.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface PageConfig {
  readonly viewId: string;
  readonly token: string;
  readonly sandboxUrl: string;
  readonly version: string;
}

interface ViewData {
  readonly title: string;
  readonly html: string;
  readonly csp?: Record<string, string[]>;
  readonly permissions?: Record<string, object>;
  readonly input: Record<string, unknown>;
  readonly result: { content: unknown[]; isError?: boolean };
}

const config = JSON.parse(document.getElementById("app-config")!.textContent) as PageConfig;

/** One request to indusr; its `error` becomes a thrown Error the bridge hands to the view. */
async function api<T>(path: string, body: object): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-indusr-token": config.token },
    body: JSON.stringify({ viewId: config.viewId, ...body }),
  });
  const json = (await response.json()) as { result?: T; error?: string };
  if (json.error !== undefined) throw new Error(json.error);
  return json.result as T;
}

/** The sandbox proxy frame, once it says it is ready for the view. */
function sandboxFrame(): Promise<HTMLIFrameElement> {
  const frame = document.createElement("iframe");
  frame.id = "app-frame";
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  const ready = new Promise<HTMLIFrameElement>((resolve) => {
    const listener = (event: MessageEvent) => {
      const data = event.data as { method?: string } | undefined;
      if (event.source !== frame.contentWindow || data?.method !== "ui/notifications/sandbox-proxy-ready") return;
      window.removeEventListener("message", listener);
      resolve(frame);
    };
    window.addEventListener("message", listener);
  });
  frame.src = config.sandboxUrl;
  document.getElementById("app")!.append(frame);
  return ready;
}

function bridgeFor(frame: HTMLIFrameElement, view: ViewData): AppBridge {
  const bridge = new AppBridge(
    null,
    { name: "indusr", version: config.version },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { theme: "light", platform: "desktop", displayMode: "inline", availableDisplayModes: ["inline"] } },
  );
  bridge.oncalltool = (params) => api("/api/call", { name: params.name, arguments: params.arguments ?? {} });
  bridge.onreadresource = (params) => api("/api/read", { uri: params.uri });
  bridge.onopenlink = async ({ url }) => {
    window.open(url, "_blank", "noopener,noreferrer");
    return {};
  };
  bridge.onmessage = async () => ({ isError: true });
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: view.input });
    void bridge.sendToolResult(view.result as never);
    document.body.dataset["app"] = "ready";
  };
  return bridge;
}

async function main(): Promise<void> {
  const view = await api<ViewData>("/api/view", {});
  document.getElementById("title")!.textContent = view.title;
  const frame = await sandboxFrame();
  const bridge = bridgeFor(frame, view);
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await bridge.sendSandboxResourceReady({
    html: view.html,
    ...(view.csp !== undefined && { csp: view.csp }),
    ...(view.permissions !== undefined && { permissions: view.permissions }),
  });
}

main().catch((error: unknown) => {
  document.getElementById("title")!.textContent = `The app could not open: ${(error as Error).message}`;
  document.body.dataset["app"] = "failed";
});
