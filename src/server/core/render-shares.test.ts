import { describe, expect, it } from 'vitest';
import { createRenderAllowance, createRenderShares } from './render-shares';

describe('render shares', () => {
  it('gives each account its own bucket of render milliseconds, refilled at the rate up to the burst', () => {
    let time = 0;
    const shares = createRenderShares({ msPerSecond: 100, burstMs: 100, now: () => time });
    const a = shares.forAccount('a');
    expect(a.getAvailableMs()).toBe(100);
    a.spend(60);
    a.spend(70); // a render that ran past what was left is paid back from what comes later
    expect(a.getAvailableMs()).toBe(-30);
    expect(shares.forAccount('b').getAvailableMs()).toBe(100);
    time += 500;
    expect(a.getAvailableMs()).toBe(20);
    time += 10_000;
    expect(a.getAvailableMs()).toBe(100);
  });

  it('gives a piece of work off the hop path a fixed allowance', () => {
    const allowance = createRenderAllowance(100);
    allowance.spend(70);
    expect(allowance.getAvailableMs()).toBe(30);
    allowance.spend(40);
    expect(allowance.getAvailableMs()).toBe(-10);
  });
});
