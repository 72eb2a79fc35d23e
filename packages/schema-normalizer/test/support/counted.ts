/**
 * A read-counting view of a hostile input: work the normalizer does on its
 * input shows up as reads, so a bound on reads is a bound on work that holds
 * on a loaded machine, where a bound on milliseconds does not.
 */

export interface Counted<T> {
  /** The input behind proxies that count every read, objects reached from it too. */
  readonly input: T;
  /** Reads so far: property descriptors, key listings, gets and prototype looks. */
  reads(): number;
}

/** Wraps `input` (and, lazily, every object read from it) in counting proxies. */
export function counted<T extends object>(input: T): Counted<T> {
  let reads = 0;
  const views = new WeakMap<object, object>();
  const view = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    let proxy = views.get(value);
    if (proxy === undefined) {
      proxy = new Proxy(value, handler);
      views.set(value, proxy);
    }
    return proxy;
  };
  const handler: ProxyHandler<object> = {
    getOwnPropertyDescriptor(target, key) {
      reads++;
      const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
      if (descriptor !== undefined && "value" in descriptor && descriptor.configurable === true) {
        descriptor.value = view(descriptor.value);
      }
      return descriptor;
    },
    ownKeys(target) {
      reads++;
      return Reflect.ownKeys(target);
    },
    get(target, key, receiver) {
      reads++;
      return view(Reflect.get(target, key, receiver));
    },
    has(target, key) {
      reads++;
      return Reflect.has(target, key);
    },
    getPrototypeOf(target) {
      reads++;
      return Reflect.getPrototypeOf(target);
    },
  };
  return { input: view(input) as T, reads: () => reads };
}
