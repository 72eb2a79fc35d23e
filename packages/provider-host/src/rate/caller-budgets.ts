/**
 * Per-caller request budgets: a token bucket per caller, filled at the
 * policy's rate up to its burst. Buckets live in this process (each replica
 * keeps its own, which behind a load balancer spreads a caller's budget
 * over the replicas); the number of buckets is bounded, the longest idle
 * one forgotten first.
 */
import type { RateLimit } from "@indus/contract";

export type BudgetVerdict =
  { readonly kind: "allowed" } | { readonly kind: "limited"; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

const ALLOWED: BudgetVerdict = { kind: "allowed" };
const MAX_BUCKETS = 10_000;

export class CallerBudgets {
  private readonly buckets = new Map<string, Bucket>();

  /** Takes one request from `caller`'s bucket under `limit`. */
  take(caller: string, limit: RateLimit, now = Date.now()): BudgetVerdict {
    const perMs = limit.perMinute / 60_000;
    const burst = limit.burst ?? Math.max(1, Math.floor(limit.perMinute / 10));
    let bucket = this.buckets.get(caller);
    if (bucket === undefined) {
      if (this.buckets.size >= MAX_BUCKETS) this.forgetOldest();
      bucket = { tokens: burst, at: now };
    } else {
      // Re-inserted below, so the map stays in least-recently-used order.
      this.buckets.delete(caller);
      bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perMs);
      bucket.at = now;
    }
    this.buckets.set(caller, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    return { kind: "limited", retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
  }

  private forgetOldest(): void {
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}
