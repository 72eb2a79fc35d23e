/**
 * An endpoint seen through the trust gate: every listing (tools, prompts,
 * resources, templates) is screened before anyone above the fleet sees it,
 * so the mounted box, the catalog, one-shot commands and the gateway all get
 * the same verdicts. A withheld definition is absent from the listings, and
 * using it (a call, a `prompts/get`, a read) fails with a `withheld` fault
 * that says why. A `ui://` body is read for the definitions that present one
 * (its digest is part of their pin), and checked again on every read.
 */
import {
  presentedUi,
  protocolFault,
  type DefinitionGate,
  type DefinitionKind,
  type DefinitionVerdict,
  type GatewayCallOptions,
  type InvokeOptions,
  type JsonObject,
  type JsonValue,
  type ListedDefinition,
  type McpEndpoint,
  type RawCall,
  type RawForward,
  type RemoteCallResult,
  type RemoteTool,
  type ToolsChange,
  type WithheldDefinition,
} from "@indus/contract";
import { uriTemplateMatches } from "./default-endpoint";
import { toolFilter } from "./tool-filter";
import { EndpointFacade } from "./endpoint-facade";

/** What one screening let through, and what it held back by name. */
interface Screening<T> {
  readonly admitted: readonly T[];
  readonly withheld: ReadonlyMap<string, WithheldDefinition>;
}

const NOTHING_WITHHELD: ReadonlyMap<string, WithheldDefinition> = new Map();

function withheldFault(withheld: WithheldDefinition) {
  return protocolFault("withheld", withheld.message, undefined, {
    server: withheld.server,
    data: { kind: withheld.kind, name: withheld.name, reason: withheld.reason, fields: [...(withheld.fields ?? [])] },
  });
}

/** The tool as its server sent it (the descriptor's wire form), under its server-side name. */
function wireOf(tool: RemoteTool): JsonObject {
  const wire = tool.descriptor.wire;
  if (wire !== undefined) return wire;
  const { description, parameters } = tool.descriptor;
  return { name: tool.ref.name, description, inputSchema: parameters as JsonObject };
}

export class GatedEndpoint extends EndpointFacade {
  private tools: { readonly from: readonly RemoteTool[]; readonly screening: Screening<RemoteTool> } | undefined;
  private readonly screenings = new Map<Exclude<DefinitionKind, "tool">, ReadonlyMap<string, WithheldDefinition>>();
  private readonly keep;
  private changes: Promise<void> = Promise.resolve();
  /** Tool changes still being screened: while none is, a raw call's answer needs no wait. */
  private screeningChanges = 0;
  /**
   * The `ui://` bodies the latest tool screening read, handed to the next
   * resource screening (once): a body a tool and a resource both present is
   * read once at start-up, not twice. Every read of it is checked again.
   */
  private toolBodies = new Map<string, Promise<JsonValue>>();

  constructor(
    inner: McpEndpoint,
    private readonly gate: DefinitionGate,
  ) {
    super(inner);
    this.keep = toolFilter(inner.config);
  }

  override async listTools(): Promise<readonly RemoteTool[]> {
    return (await this.screenTools(await this.inner.listTools())).admitted;
  }

  /** The tool count is what passed the gate (and the config's filter), once the tools were screened. */
  override status() {
    const status = this.inner.status();
    const screened = this.tools?.screening.admitted;
    return screened === undefined || status.phase !== "ready" ? status : { ...status, toolCount: screened.length };
  }

  override async invoke(name: string, args: unknown, options?: InvokeOptions): Promise<RemoteCallResult> {
    if (this.tools === undefined) await this.listTools().catch(() => undefined);
    const withheld = this.tools?.screening.withheld.get(name);
    if (withheld !== undefined) throw withheldFault(withheld);
    const result = await this.inner.invoke(name, args, options);
    // The endpoint read the tool list a call changed before answering; its screening (which may read
    // ui:// bodies) is done before the answer is handed on too, so the next turn sees the verdicts.
    await this.changes;
    return result;
  }

  /**
   * Taken raw only once the tools were screened and this one was admitted;
   * its answer waits for the screening of a tool change, as `invoke`'s does.
   */
  override forwardRaw(call: RawCall): RawForward | undefined {
    if (this.tools === undefined || this.tools.screening.withheld.has(call.name)) return undefined;
    return this.inner.forwardRaw?.({
      ...call,
      answer: (answer) => {
        if (this.screeningChanges === 0) call.answer(answer);
        else void this.changes.then(() => call.answer(answer));
      },
    });
  }

  override onToolsChanged(listener: (change: ToolsChange) => void): () => void {
    return this.inner.onToolsChanged((change) => {
      // Screening may read ui:// bodies: changes are screened and passed on in order. A screening that
      // fails leaves the last verdicts in place and does not stop the ones after it.
      this.screeningChanges += 1;
      this.changes = this.changes
        .then(async () => {
          const before = this.tools?.screening.admitted ?? [];
          const after = (await this.screenTools(change.tools)).admitted;
          listener(toolsChange(before, after));
        })
        .catch(() => undefined)
        .finally(() => (this.screeningChanges -= 1));
    });
  }

  override async listPrompts(options?: GatewayCallOptions): Promise<readonly JsonObject[]> {
    return this.screenCatalog("prompt", await this.inner.listPrompts(options));
  }

  override async listResources(options?: GatewayCallOptions): Promise<readonly JsonObject[]> {
    return this.screenCatalog("resource", await this.inner.listResources(options));
  }

  override async listResourceTemplates(options?: GatewayCallOptions): Promise<readonly JsonObject[]> {
    return this.screenCatalog("resource-template", await this.inner.listResourceTemplates(options));
  }

  override async getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options?: GatewayCallOptions,
  ): Promise<JsonObject> {
    const withheld = (await this.withheldOf("prompt", options)).get(name);
    if (withheld !== undefined) throw withheldFault(withheld);
    return this.inner.getPrompt(name, args, options);
  }

  override async readResource(uri: string, options?: GatewayCallOptions): Promise<JsonObject> {
    const withheld = await this.withheldResource(uri, options);
    if (withheld !== undefined) throw withheldFault(withheld);
    const result = await this.inner.readResource(uri, options);
    if (!uri.startsWith("ui://")) return result;
    const verdict = this.gate.screenBody(this.config, uri, result["contents"] ?? null);
    if (verdict.kind === "withhold") throw withheldFault(verdict.withheld);
    return result;
  }

  /** A listed resource, or a URI only a withheld template expands, is withheld. */
  private async withheldResource(uri: string, options?: GatewayCallOptions): Promise<WithheldDefinition | undefined> {
    const direct = (await this.withheldOf("resource", options)).get(uri);
    if (direct !== undefined) return direct;
    for (const [template, withheld] of await this.withheldOf("resource-template", options)) {
      if (uriTemplateMatches(template, uri)) return withheld;
    }
    return undefined;
  }

  /** What the latest listing of `kind` withheld; listed once first when it never was (so nothing slips by unlisted). */
  private async withheldOf(
    kind: Exclude<DefinitionKind, "tool">,
    options?: GatewayCallOptions,
  ): Promise<ReadonlyMap<string, WithheldDefinition>> {
    if (!this.screenings.has(kind)) {
      const list =
        kind === "prompt"
          ? () => this.listPrompts(options)
          : kind === "resource"
            ? () => this.listResources(options)
            : () => this.listResourceTemplates(options);
      await list().catch(() => undefined);
    }
    return this.screenings.get(kind) ?? NOTHING_WITHHELD;
  }

  private async screenCatalog(kind: Exclude<DefinitionKind, "tool">, items: readonly JsonObject[]) {
    const screening = this.sort(kind, await this.listed(kind, items), items);
    this.screenings.set(kind, screening.withheld);
    return screening.admitted;
  }

  /** The tools the config filter keeps are screened; a listing already screened (the endpoint's cache) is not redone. */
  private async screenTools(tools: readonly RemoteTool[]): Promise<Screening<RemoteTool>> {
    if (this.tools?.from === tools) return this.tools.screening;
    const kept = tools.filter((tool) => this.keep(tool.ref.name));
    const wires = kept.map(wireOf);
    const screening = this.sort("tool", await this.listed("tool", wires), kept);
    this.tools = { from: tools, screening };
    return screening;
  }

  /** Each item with the `ui://` body it presents, each body read once (none under `trust: "off"`: nothing is pinned). */
  private async listed(kind: DefinitionKind, items: readonly JsonObject[]): Promise<ListedDefinition[]> {
    if (this.config.trust === "off") return items.map((item) => ({ item }));
    const bodies = this.bodiesFor(kind);
    const bodyOf = (uri: string) => {
      let body = bodies.get(uri);
      if (body === undefined) {
        body = this.inner.readResource(uri).then(
          (result) => result["contents"] ?? null,
          () => null,
        );
        bodies.set(uri, body);
      }
      return body;
    };
    return Promise.all(
      items.map(async (item) => {
        const ui = presentedUi(kind, item);
        return ui === undefined ? { item } : { item, uiBody: await bodyOf(ui) };
      }),
    );
  }

  /** A fresh map of body reads; a resource screening starts from the latest tool screening's reads (and uses them up). */
  private bodiesFor(kind: DefinitionKind): Map<string, Promise<JsonValue>> {
    if (kind === "tool") {
      this.toolBodies = new Map();
      return this.toolBodies;
    }
    if (kind !== "resource") return new Map();
    const bodies = this.toolBodies;
    this.toolBodies = new Map();
    return bodies;
  }

  private sort<T>(kind: DefinitionKind, listed: readonly ListedDefinition[], items: readonly T[]): Screening<T> {
    const verdicts: readonly DefinitionVerdict[] = this.gate.screen(this.config, kind, listed);
    const admitted: T[] = [];
    const withheld = new Map<string, WithheldDefinition>();
    verdicts.forEach((verdict, i) => {
      if (verdict.kind === "admit") admitted.push(items[i]!);
      else withheld.set(verdict.withheld.name, verdict.withheld);
    });
    return { admitted, withheld };
  }
}

/** The change between two admitted tool lists, by server-side name. */
function toolsChange(before: readonly RemoteTool[], after: readonly RemoteTool[]): ToolsChange {
  const old = new Map(before.map((tool) => [tool.ref.name, tool]));
  const now = new Map(after.map((tool) => [tool.ref.name, tool]));
  return {
    added: after.filter((tool) => !old.has(tool.ref.name)),
    changed: after.filter((tool) => old.has(tool.ref.name) && old.get(tool.ref.name) !== tool),
    removed: before.filter((tool) => !now.has(tool.ref.name)),
    tools: after,
  };
}
