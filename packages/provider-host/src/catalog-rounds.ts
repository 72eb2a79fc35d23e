/**
 * A read, prompt get or completion of a 2026-07-28 client, when the server
 * behind asks that client something while serving it: the same rounds as a
 * tool call's (see `input-rounds`). The request is answered `input_required`
 * with the questions; the client's retry with the answers lets it go on.
 */
import type { GatewayCallOptions } from "@indus/contract";
import { inputRequired } from "@modelcontextprotocol/server";
import type { ServerContext } from "@modelcontextprotocol/server";
import { RoundTripCall, resumeOrStart } from "./input-rounds";
import type { InputRounds } from "./input-rounds";
import { envelopeCapabilities, envelopeLogLevel } from "./tool-call";

/** Runs `work` for `ctx`'s client over as many rounds as its server's questions take. */
export async function inRounds<T>(
  rounds: InputRounds,
  ctx: ServerContext,
  name: string,
  work: (options: GatewayCallOptions) => Promise<T>,
): Promise<T | ReturnType<typeof inputRequired>> {
  const { call } = resumeOrStart(
    rounds,
    ctx,
    name,
    () => new RoundTripCall(name, undefined, envelopeCapabilities(ctx), envelopeLogLevel(ctx)),
  );
  const round = call.run.attach(ctx);
  call.enter(ctx);
  try {
    const outcome = call.once(() => work({ signal: call.run.controller.signal, peer: call.peer, logs: call.logs }));
    const end = await call.next(outcome);
    if (end.kind === "input") return inputRequired({ inputRequests: end.requests, requestState: rounds.suspend(call) });
    return await outcome;
  } finally {
    call.leave(ctx);
    round.detach();
  }
}
