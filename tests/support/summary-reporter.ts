import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the run names at its end. */
const SLOWEST_SHOWN = 25;

/**
 * Ends the run with each tier's time (its files' durations added up), the slowest test files (where the suite's time goes, so CI's log shows what to cut) and one
 * plain line, `tests: N passed, N failed, N skipped`, which CI reads. Skipped tests are counted apart: a skip is
 * never a pass.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const byTier = new Map<string, { files: number; ms: number }>();
    for (const module of testModules) {
      const tier = byTier.get(module.project.name) ?? { files: 0, ms: 0 };
      tier.files++;
      tier.ms += module.diagnostic().duration;
      byTier.set(module.project.name, tier);
    }
    if (byTier.size > 1) {
      const lines = [...byTier].map(([name, { files, ms }]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${name} (${files} files)`);
      process.stdout.write(`\ntime by tier (files' durations added):\n${lines.join('\n')}\n`);
    }
    const slowest = testModules
      .map((module) => ({ name: `${module.project.name} ${module.moduleId}`, ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN);
    if (slowest.length > 1) {
      const cwd = `${process.cwd()}/`;
      const lines = slowest.map(({ name, ms }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${name.replace(cwd, '')}`);
      process.stdout.write(`\nslowest test files:\n${lines.join('\n')}\n`);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
