/**
 * The two documents `/app` serves. The host page (one origin) loads the
 * bundled host bridge; the sandbox proxy (another origin: another port on
 * 127.0.0.1, as SEP-1865 requires the host and the sandbox to differ) relays
 * messages between the host page and the view it writes into an inner
 * frame. The view runs under the sandbox page's Content-Security-Policy,
 * built from the view's own `_meta.ui.csp` and nothing looser.
 */
import type { JsonObject } from "@indus/contract";

const escapeJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

export function hostPage(config: { viewId: string; token: string; sandboxUrl: string; version: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>indusr app</title>
<style>body{font:14px system-ui,sans-serif;margin:16px;background:#f4f4f6}#app iframe{width:100%;min-height:320px;border:1px solid #ccd;border-radius:8px;background:#fff}</style>
</head><body>
<h1 id="title" style="font-size:16px">Opening the app…</h1>
<div id="app"></div>
<script type="application/json" id="app-config">${escapeJson(config)}</script>
<script type="module" src="/app-host.js?t=${encodeURIComponent(config.token)}"></script>
</body></html>
`;
}

/** Origins a view declared for one CSP directive, kept only when they look like origins (no quotes, no spaces). */
function origins(csp: JsonObject | undefined, key: string): string {
  const list = csp?.[key];
  if (!Array.isArray(list)) return "";
  return list
    .filter((item): item is string => typeof item === "string" && /^[a-z][a-z0-9+.-]*:\/\/[^\s;,'"]+$/i.test(item))
    .join(" ");
}

/** The sandbox page's policy: SEP-1865's restrictive default, widened only by the domains the view declared. */
export function sandboxCsp(csp: JsonObject | undefined): string {
  const resources = origins(csp, "resourceDomains");
  const frames = origins(csp, "frameDomains");
  const bases = origins(csp, "baseUriDomains");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `style-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `img-src 'self' data: ${resources}`.trim(),
    `font-src 'self' data: ${resources}`.trim(),
    `media-src 'self' data: ${resources}`.trim(),
    `connect-src ${origins(csp, "connectDomains") || "'none'"}`,
    `frame-src ${frames || "'none'"}`,
    `base-uri ${bases || "'self'"}`,
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** Permission Policy features a view asked for (SEP-1865 `permissions`), for the inner frame's `allow`. */
export function allowAttribute(permissions: JsonObject | undefined): string {
  const features: Record<string, string> = {
    camera: "camera",
    microphone: "microphone",
    geolocation: "geolocation",
    clipboardWrite: "clipboard-write",
  };
  return Object.keys(permissions ?? {})
    .flatMap((key) => (features[key] !== undefined ? [features[key]] : []))
    .join("; ");
}

/**
 * The sandbox proxy: it announces itself to the host page, writes the view
 * it is sent into its inner frame, and relays every other message both ways,
 * only between the host page's origin and its own inner frame.
 */
export function sandboxPage(hostOrigin: string, allow: string): string {
  const script = `
const HOST = ${escapeJson(hostOrigin)};
const inner = document.createElement("iframe");
inner.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
${allow ? `inner.setAttribute("allow", ${escapeJson(allow)});` : ""}
inner.style = "width:100%;height:100%;border:none";
document.body.appendChild(inner);
window.addEventListener("message", (event) => {
  if (event.source === window.parent) {
    if (event.origin !== HOST) return;
    if (event.data && event.data.method === "ui/notifications/sandbox-resource-ready") {
      const doc = inner.contentDocument;
      doc.open();
      doc.write(String(event.data.params.html));
      doc.close();
      return;
    }
    inner.contentWindow.postMessage(event.data, "*");
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, HOST);
  }
});
window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, HOST);
`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><style>html,body{margin:0;height:100%}</style></head>
<body><script>${script}</script></body></html>
`;
}
