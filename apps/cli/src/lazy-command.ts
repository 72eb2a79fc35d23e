/**
 * How the command tree runs a command whose module loads only when it runs
 * (so `indusr --version` and `--help` stay cheap).
 */

/** A command module's entry point: the parsed arguments in, the exit code out. */
export type CommandHandler<A extends unknown[]> = (...args: A) => Promise<number>;

/**
 * Runs a command whose module is loaded only now. Generic in the handler's
 * parameters, so the arguments commander parsed are checked against them.
 */
export type RunLazy = <A extends unknown[]>(
  load: () => Promise<CommandHandler<A>>,
  args: A,
  how?: { readonly ownSignals: boolean },
) => Promise<void>;
