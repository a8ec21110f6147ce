import { describe, expect, it } from 'vitest';
import { compileDialPattern, readDialString } from './dial';

describe('readDialString', () => {
  it('reads template tags', () => {
    const pattern = compileDialPattern('*920*{merchantCode}*{amount}#');
    expect(pattern.hasTags).toBe(true);
    expect(readDialString(pattern, '*920*12*50#', 10)).toEqual({ vars: { merchantCode: '12', amount: '50' }, inputs: [] });
    expect(readDialString(pattern, '*920*12#', 10)).toEqual({ vars: { merchantCode: '12' }, inputs: [] });
    expect(readDialString(pattern, '*921*12*50#', 10)).toEqual({ vars: {}, inputs: [] });
  });

  it('reads a tag inside a segment', () => {
    const pattern = compileDialPattern('*920*M{code}#');
    expect(readDialString(pattern, '*920*M77#', 10).vars).toEqual({ code: '77' });
    expect(readDialString(pattern, '*920*X77#', 10).vars).toEqual({});
  });

  it('queues deep-dial inputs when the code has no tags', () => {
    const pattern = compileDialPattern('*920*7#');
    expect(readDialString(pattern, '*920*7*1*2#', 10)).toEqual({ vars: {}, inputs: ['1', '2'] });
    expect(readDialString(pattern, '*920*7*1*2*3*4#', 2).inputs).toEqual(['1', '2']);
    expect(readDialString(pattern, '*920*8*1#', 10).inputs).toEqual([]);
    expect(readDialString(pattern, undefined, 10).inputs).toEqual([]);
    expect(readDialString(pattern, `*920*7${'*'.repeat(100_000)}#`, 10).inputs).toEqual([]);
    expect(readDialString(compileDialPattern(''), '*920*7*1#', 10).inputs).toEqual([]);
  });
});
