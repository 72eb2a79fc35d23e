/**
 * Composio's actions behind `saas-action`, over its REST API (v3): `discover`
 * lists tools matching a search (optionally one toolkit, the `vendor`), and
 * `execute` runs one by its slug (`GITHUB_CREATE_ISSUE`). The key comes from
 * `COMPOSIO_API_KEY` or the user's settings; `INDUS_COMPOSIO_URL` points it
 * elsewhere (a proxy, or a local fake in tests).
 */
import type { JsonValue } from "@indus/contract";

export const COMPOSIO_URL = "https://backend.composio.dev";

export interface ComposioAction {
  readonly name: string;
  readonly server: string;
  readonly description: string;
  readonly inputSchema: JsonValue;
}

export class ComposioBackend {
  private readonly base: string;

  constructor(
    private readonly apiKey: string,
    baseUrl: string = COMPOSIO_URL,
  ) {
    this.base = baseUrl.replace(/\/$/, "");
  }

  private async request(path: string, init: RequestInit, signal: AbortSignal): Promise<Record<string, unknown>> {
    const response = await fetch(`${this.base}${path}`, {
      ...init,
      signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
      headers: { accept: "application/json", "content-type": "application/json", "x-api-key": this.apiKey },
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(
        `Composio answered ${response.status} ${response.statusText}${response.status === 401 ? " (is COMPOSIO_API_KEY right?)" : ""}`,
      );
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new Error("Composio did not return JSON");
    }
  }

  async discover(query: string | undefined, vendor: string | undefined, limit: number, signal: AbortSignal) {
    const params = new URLSearchParams({ limit: String(limit) });
    if (query) params.set("search", query);
    if (vendor) params.set("toolkit_slug", vendor.toLowerCase());
    const body = await this.request(`/api/v3/tools?${params.toString()}`, { method: "GET" }, signal);
    const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
    return items.flatMap((item): ComposioAction[] =>
      typeof item.slug === "string"
        ? [
            {
              name: item.slug,
              server: `composio:${typeof (item.toolkit as { slug?: unknown })?.slug === "string" ? (item.toolkit as { slug: string }).slug : "app"}`,
              description: typeof item.description === "string" ? item.description : "",
              inputSchema: (item.input_parameters ?? { type: "object" }) as JsonValue,
            },
          ]
        : [],
    );
  }

  async execute(slug: string, params: JsonValue, signal: AbortSignal): Promise<JsonValue> {
    const body = await this.request(
      `/api/v3/tools/execute/${encodeURIComponent(slug)}`,
      { method: "POST", body: JSON.stringify({ arguments: params }) },
      signal,
    );
    if (body.successful === false)
      throw new Error(`Composio: ${typeof body.error === "string" ? body.error : "the action failed"}`);
    return (body.data ?? null) as JsonValue;
  }
}
