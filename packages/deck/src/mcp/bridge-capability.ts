/**
 * A grafted MCP tool as a deck `Card`. Its name is the one the mounted box
 * advertises (`<server>__<tool>`, or the server's own); running it hands the
 * call to the box's shared runner (which routes it to the owning server) with
 * the call's signal, progress callback and relayTo, and returns the projected
 * result. The tool and the result as the server sent them (`wire`) ride along
 * untouched, for a gateway to republish.
 *
 * The description the model reads starts with `[<server>]` (the dispatch
 * seed): the model can tell at a glance whose tool it is, and a server's text
 * cannot pass itself off as a built-in's.
 */
import type {
  JsonObject,
  RawCall,
  RawForward,
  JsonSchema,
  RunOptions,
  ToolAnnotations,
  ToolBox,
  ToolCall,
  ToolDescriptor,
  ToolOutcome,
  ToolResult,
  ToolRunner,
} from "@indus/contract";
import type { Card, CapabilityCard, ToolContext } from "../vocabulary";
import { capabilityId } from "../vocabulary";
import { serverOfQualified, unqualifiedTool } from "@indus/ledger";

let callCounter = 0;

export class BridgeCapability implements Card {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /**
   * Always false: a remote server's `readOnlyHint` is untrusted, so a grafted
   * tool never bypasses the permission gate. The hint stays on `annotations`.
   */
  readonly readOnly = false;
  readonly annotations: ToolAnnotations | undefined;
  readonly wire?: JsonObject;

  constructor(
    descriptor: ToolDescriptor,
    private readonly runner: ToolRunner,
    /** The server id the tool belongs to. */
    readonly server: string,
    /** The server-side (unqualified) tool name. */
    readonly tool: string,
  ) {
    this.name = descriptor.name;
    this.label = descriptor.name;
    this.description = serverTagged(server, descriptor.description);
    this.parameters = descriptor.parameters;
    this.annotations = descriptor.annotations;
    if (descriptor.wire !== undefined) this.wire = descriptor.wire;
  }

  /**
   * A call the deck's own box received (a gateway's), handed to the mounted
   * box with its options as they stand: nothing in a tool context is for a
   * grafted tool, so none is built per call.
   */
  forward(call: ToolCall, options: RunOptions | undefined): Promise<ToolOutcome> {
    return this.runner.run({ id: call.id, name: this.name, input: call.input ?? {} }, options);
  }

  /** The call taken raw by the mounted box, when its server can (see `forward`). */
  forwardRaw(call: RawCall): RawForward | undefined {
    return this.runner.forwardRaw?.(call.name === this.name ? call : { ...call, name: this.name });
  }

  async run(input: unknown, ctx: ToolContext): Promise<ToolResult> {
    const outcome = await this.runner.run(
      { id: `bridge_${this.name}_${++callCounter}`, name: this.name, input: input ?? {} },
      {
        signal: ctx.signal,
        ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
        ...(ctx.relayTo ? { relayTo: ctx.relayTo } : {}),
        ...(ctx.logs ? { logs: ctx.logs } : {}),
      },
    );
    return {
      content: outcome.content,
      isError: outcome.isError,
      ...(outcome.structuredContent === undefined ? {} : { structuredContent: outcome.structuredContent }),
      ...(outcome.wire === undefined ? {} : { wire: outcome.wire }),
      ...(outcome.rpcError === undefined ? {} : { rpcError: outcome.rpcError }),
    };
  }
}

/** `[<server>] <description>`, once (a description already tagged keeps its one tag). */
function serverTagged(server: string, description: string): string {
  const tag = `[${server}]`;
  if (description.startsWith(tag)) return description;
  return description.length > 0 ? `${tag} ${description}` : tag;
}

/** A box that can say which server (and server-side name) a descriptor routes to, like the fleet's mounted box. */
interface ResolvingBox extends ToolBox {
  resolve?(name: string): { readonly ref: { readonly server: string; readonly name: string } } | undefined;
}

/** Every descriptor a box advertises, as capabilities sharing the box's runner. */
export function bridgeBoxToCapabilities(box: ToolBox): BridgeCapability[] {
  const resolving = box as ResolvingBox;
  return box.descriptors().map((descriptor) => {
    const ref = resolving.resolve?.(descriptor.name)?.ref;
    return new BridgeCapability(
      descriptor,
      box.runner,
      ref?.server ?? serverOfQualified(descriptor.name),
      ref?.name ?? unqualifiedTool(descriptor.name),
    );
  });
}

/** A grafted capability as a catalog row: listed in help and introspection, in no profile. */
export function bridgeCapabilityCard(cap: Card): CapabilityCard {
  const summary =
    cap.description
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  return {
    id: capabilityId(cap.name),
    title: cap.label,
    summary: summary.length > 160 ? `${summary.slice(0, 157)}...` : summary,
    profiles: [],
    build: () => cap,
  };
}
