/**
 * Work measured without a clock: calls of the built-ins that looking a menu up goes through, by a scan of a list
 * (`trim`, `toLowerCase`, `includes` on each element) or by an index (`Map#get`, `Set#has`), counted while `run`
 * runs. Comparing the counts for an app and one twice its size tells linear work (about 2x) from quadratic
 * (about 4x) on any machine, however loaded. The built-ins are restored when `run` ends.
 */
export async function countOperations(run: () => unknown): Promise<number> {
  const targets: Array<[object, string]> = [
    [String.prototype, 'trim'],
    [String.prototype, 'toLowerCase'],
    [String.prototype, 'includes'],
    [Map.prototype, 'get'],
    [Set.prototype, 'has'],
  ];
  let count = 0;
  const originals = targets.map(([owner, name]) => {
    const original = (owner as Record<string, (...args: unknown[]) => unknown>)[name]!;
    Object.defineProperty(owner, name, {
      configurable: true,
      writable: true,
      value: function counted(this: unknown, ...args: unknown[]) {
        count += 1;
        return original.apply(this, args);
      },
    });
    return original;
  });
  try {
    await run();
  } finally {
    for (const [i, [owner, name]] of targets.entries())
      Object.defineProperty(owner, name, { configurable: true, writable: true, value: originals[i] });
  }
  return count;
}
