/**
 * The gateway's request counts by method and server, kept in plain numbers
 * and handed to prom-client only when `/metrics` is scraped: a prom-client
 * series (even a bound `labels()` child) hashes its label object on every
 * `inc` and `observe`, three times per request.
 */
import type * as PromClient from "prom-client";

/** Upper bounds (seconds) of the latency histogram's buckets. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One method and server's requests. */
export interface Tally {
  readonly labels: { readonly method: string; readonly server: string };
  /** Requests by outcome. */
  readonly outcomes: Map<string, number>;
  errors: number;
  /** Requests per latency bucket (not cumulative); the last is past every bound. */
  readonly buckets: number[];
  sum: number;
}

export class RequestTallies {
  /**
   * By method, then server: two lookups of strings the records already hold,
   * rather than a `method\nserver` key built (and hashed) for every request.
   */
  private readonly byMethod = new Map<string, Map<string, Tally>>();

  /** `failures`: the outcomes counted as errors. */
  constructor(private readonly failures: ReadonlySet<string>) {}

  count(method: string, server: string, outcome: string, seconds: number): void {
    const tally = this.tallyOf(method, server);
    tally.outcomes.set(outcome, (tally.outcomes.get(outcome) ?? 0) + 1);
    if (this.failures.has(outcome)) tally.errors++;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    tally.buckets[bucket]!++;
    tally.sum += seconds;
  }

  *values(): IterableIterator<Tally> {
    for (const byServer of this.byMethod.values()) yield* byServer.values();
  }

  private tallyOf(method: string, server: string): Tally {
    let byServer = this.byMethod.get(method);
    if (byServer === undefined) {
      byServer = new Map();
      this.byMethod.set(method, byServer);
    }
    let tally = byServer.get(server);
    if (tally === undefined) {
      const buckets = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);
      tally = { labels: { method, server }, outcomes: new Map(), errors: 0, buckets, sum: 0 };
      byServer.set(server, tally);
    }
    return tally;
  }
}

type MetricValue = PromClient.MetricValueWithName<string>;

/**
 * The latency histogram as prom-client's registry reads a metric (`get()`).
 * prom-client's own `Histogram` can only be fed one observation at a time,
 * so it cannot publish counts kept elsewhere.
 */
export function latencyHistogram(name: string, help: string, tallies: RequestTallies) {
  const read = () => {
    const values: MetricValue[] = [];
    for (const { labels, buckets, sum } of tallies.values()) {
      let seen = 0;
      LATENCY_BUCKETS.forEach((bound, index) => {
        seen += buckets[index]!;
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: seen });
      });
      seen += buckets[LATENCY_BUCKETS.length]!;
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: "+Inf" }, value: seen });
      values.push({ metricName: `${name}_sum`, labels, value: sum });
      values.push({ metricName: `${name}_count`, labels, value: seen });
    }
    return { name, help, type: "histogram", aggregator: "sum", values };
  };
  return { name, help, type: "histogram", aggregator: "sum", get: () => Promise.resolve(read()), reset() {} };
}
