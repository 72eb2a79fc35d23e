/**
 * The SDK server, with each request's end reported to the gateway's records:
 * a result, a tool's error result, an input request or a JSON-RPC error.
 * Through the SDK's own hook for wrapping registered handlers; a request the
 * gateway does not observe costs one map lookup.
 */
import { Server } from "@modelcontextprotocol/server";
import type { JSONRPCRequest, Result, ServerContext } from "@modelcontextprotocol/server";
import { recordOf } from "./exchanges";

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class ObservedServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) => {
      const observed = recordOf(ctx);
      if (observed === undefined) return wrapped(request, ctx);
      const { record, exchange } = observed;
      return wrapped(request, ctx).then(
        (result) => {
          const answer = result as { isError?: unknown; resultType?: unknown };
          const outcome =
            answer.isError === true ? "tool-error" : answer.resultType === "input_required" ? "input-required" : "ok";
          exchange.finish(record, outcome);
          return result;
        },
        (error: unknown) => {
          const code = (error as { code?: unknown } | null)?.code;
          exchange.finish(record, "error", typeof code === "number" ? code : undefined);
          throw error;
        },
      );
    };
  }
}
