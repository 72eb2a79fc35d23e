/**
 * The server's tools as the endpoint holds them: listed in full (all pages,
 * one bad tool never drops the page), cached until the server announces a
 * change or its `ttlMs` passes (2026 era), refreshed single-flight, and
 * diffed for `onToolsChanged` subscribers. Also keeps what each tool's call
 * needs to know from the listing (`ToolCallTraits`).
 */
import { isExpired, listExpiry } from "./list-expiry";
import {
  isProtocolFault,
  paramHeaderDeclarations,
  type ParamHeaderDeclaration,
  type ProtocolFault,
  type RemoteTool,
} from "@indus/contract";
import { allPages } from "../pages";
import type { Session } from "../session";
import { diffTools, isEmptyChange, type ToolsChange, type ToolsChangeListener } from "./tool-changes";
import { buildRemoteTools } from "./tool-listing";
import { offersToolTasks, requiresTask } from "./tool-task";

/** What a call of one tool must do differently, as its listing says; absent for most tools. */
export interface ToolCallTraits {
  /** Its `x-mcp-header` declarations (2026 era over HTTP only). */
  readonly paramHeaders?: readonly ParamHeaderDeclaration[];
  /** It must run as a task (2025 era, `execution.taskSupport: "required"`; see `tool-task.ts`). */
  readonly task?: true;
}

/** What the catalog needs of the endpoint. */
export interface ToolCatalogPort {
  readonly server: string;
  /** Deadline of each page's request. */
  readonly listMs: number;
  /** The endpoint is ready (a live session). */
  ready(): boolean;
  /** The live session, if any. */
  current(): Session | undefined;
  notConnected(what: string): ProtocolFault;
  /** Run `op` on the live session, recovering a lost HTTP session; errors become `list` faults. */
  onSession<T>(what: string, op: (session: Session) => Promise<T>): Promise<T>;
  toFault(error: unknown): ProtocolFault;
}

export class ToolCatalog {
  private cache: readonly RemoteTool[] | undefined;
  /** When the cached list goes stale (the server's `ttlMs`, 2026 era); never when absent. */
  private expireAt: number | undefined;
  private listing: Promise<readonly RemoteTool[]> | undefined;
  private listAgain = false;
  private issues: readonly string[] = [];
  /** The tools whose calls differ (headers, tasks), from the last listing. */
  private traitsByTool = new Map<string, ToolCallTraits>();
  /** Tools the transport-level sanitizer dropped during the listing under way. */
  private dropped: string[] = [];
  private fault: ProtocolFault | undefined;
  private readonly listeners = new Set<ToolsChangeListener>();

  constructor(private readonly port: ToolCatalogPort) {}

  /** The last list read, if any. */
  get cached(): readonly RemoteTool[] | undefined {
    return this.cache;
  }

  /** Why the last listing failed, until one succeeds. */
  get listFault(): ProtocolFault | undefined {
    return this.fault;
  }

  /** Tools the last listing skipped, and why. */
  get listIssues(): readonly string[] {
    return this.issues;
  }

  /** How a call of tool `name` (server-side name) differs from a plain one, if it does. */
  callTraits(name: string): ToolCallTraits | undefined {
    return this.traitsByTool.get(name);
  }

  /** Tools the transport dropped from a page before the SDK saw it. */
  noteDropped(issues: readonly string[]): void {
    this.dropped.push(...issues);
  }

  onChanged(listener: ToolsChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The cached list while fresh, else a new listing (the held list if that fails after expiry). */
  list(): Promise<readonly RemoteTool[]> {
    const cached = this.port.ready() ? this.cache : undefined;
    if (!cached) return this.refresh();
    if (!isExpired(this.expireAt)) return Promise.resolve(cached);
    // Past the server's `ttlMs`: list again; if that fails, the list we have is still the best known.
    return this.refresh().catch(() => cached);
  }

  /**
   * Re-read the whole tool list now. Refreshes coalesce: one asked for while
   * another runs gets that one's result, and one more pass follows it (its
   * changes reach `onToolsChanged` subscribers). So a server announcing a
   * change right after `initialize` does not hold up the first listing.
   */
  refresh(): Promise<readonly RemoteTool[]> {
    if (this.listing) {
      this.listAgain = true;
      return this.listing;
    }
    if (!this.port.ready()) return Promise.reject(this.port.notConnected("list tools"));
    const pass = this.fetch().then((tools) => {
      this.apply(tools);
      return tools;
    });
    this.listing = pass.finally(() => {
      this.listing = undefined;
      if (this.listAgain) {
        this.listAgain = false;
        if (this.port.ready()) void this.refresh().catch(() => undefined);
      }
    });
    this.listing.catch(() => undefined);
    return this.listing;
  }

  /**
   * Resolves once no listing runs. A server that changes its tools during a
   * call announces it before the call's result: awaiting this before handing
   * the result on means the caller's next request already has the new tools.
   */
  async idle(): Promise<void> {
    while (this.listing) await this.listing.catch(() => undefined);
  }

  /** True while a listing runs (a raw call's answer then waits for `idle`, as a call's result does). */
  get busy(): boolean {
    return this.listing !== undefined;
  }

  private async fetch(): Promise<readonly RemoteTool[]> {
    // Not `client.listTools()`: it validates the whole page with the SDK's strict
    // schema and compiles every `outputSchema`, so one bad tool throws the whole
    // list away. We read pages as arrays and check each tool on its own.
    let raw: unknown[];
    this.dropped = [];
    const requestedAt = Date.now();
    let firstPage: unknown;
    try {
      raw = await this.port.onSession("list tools", (session) =>
        allPages(session.client, "tools/list", "tools", {
          timeoutMs: this.port.listMs,
          onPage: (page) => (firstPage ??= page),
        }),
      );
    } catch (error) {
      this.fault = isProtocolFault(error) ? error : this.port.toFault(error);
      throw this.fault;
    }
    this.fault = undefined;
    const session = this.port.current();
    this.expireAt = session?.era === "2026-07-28" ? listExpiry(firstPage, requestedAt) : undefined;
    this.traitsByTool = callTraitsOf(session, raw);
    const { tools, issues } = buildRemoteTools(this.port.server, raw);
    this.issues = [...this.dropped, ...issues];
    return tools;
  }

  private apply(tools: readonly RemoteTool[]): void {
    const change: ToolsChange = diffTools(this.cache ?? [], tools);
    const first = this.cache === undefined;
    this.cache = tools;
    if (first || isEmptyChange(change)) return;
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A listener's bug is not the server's fault.
      }
    }
  }
}

/** The listed tools whose calls differ from a plain `tools/call`, and how. */
function callTraitsOf(session: Session | undefined, raw: readonly unknown[]): Map<string, ToolCallTraits> {
  const map = new Map<string, ToolCallTraits>();
  if (!session) return map;
  // Only a 2026-era HTTP session sends `Mcp-Param-*` headers; only the 2025 era has task-augmented calls.
  const headers = session.era === "2026-07-28" && session.kind === "streamable-http";
  const tasks = session.era === "legacy" && offersToolTasks(session.client.getServerCapabilities());
  if (!headers && !tasks) return map;
  for (const item of raw) {
    if (typeof item !== "object" || item === null) continue;
    const { name, inputSchema } = item as { name?: unknown; inputSchema?: unknown };
    if (typeof name !== "string") continue;
    const declared = headers ? paramHeaderDeclarations(inputSchema) : [];
    const task = tasks && requiresTask(item);
    if (declared.length === 0 && !task) continue;
    map.set(name, { ...(declared.length > 0 ? { paramHeaders: declared } : {}), ...(task ? { task: true } : {}) });
  }
  return map;
}
