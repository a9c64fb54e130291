/**
 * Properties of a global object (globalThis, navigator) replaced for one test, and put back when
 * the test's `using` ends: test files share an isolate (scripts/runTests/shared.ts), so what one
 * test leaves replaced, every file after it meets (a fake `fetch` once answered another file's
 * real calls).
 */
export function replaced(target: object, values: Record<string, unknown>): Disposable {
  const before = Object.keys(values).map((k) => [k, Object.getOwnPropertyDescriptor(target, k)] as const);
  for (const [k, value] of Object.entries(values)) {
    Object.defineProperty(target, k, { configurable: true, writable: true, value });
  }
  return {
    [Symbol.dispose]() {
      for (const [k, d] of before) {
        // An own property is put back as it was; one the object only inherited (navigator's
        // getters live on its prototype) is removed, and the inherited one shows again.
        if (d) Object.defineProperty(target, k, d);
        else delete (target as Record<string, unknown>)[k];
      }
    },
  };
}
