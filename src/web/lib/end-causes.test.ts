import { describe, expect, it } from 'vitest';
import { causeLabel, causeListPath } from './end-causes';

describe('end causes in the console', () => {
  it('names a record without a cause "Not recorded"', () => {
    expect(causeLabel(null)).toBe('Not recorded');
    expect(causeLabel('budget_exceeded')).toBe('Budget exceeded');
  });

  it('leads a cause the app closed with to the completed list, any other to the uncompleted list, filtered by it', () => {
    expect(causeListPath('a1', 'terminated')).toBe('/app/completesession/a1?cause=terminated');
    expect(causeListPath('a1', 'app_error')).toBe('/app/completesession/a1?cause=app_error');
    expect(causeListPath('a1', 'timed_out')).toBe('/app/uncompletedsession/a1?cause=timed_out');
  });
});
