import { describe, expect, it } from 'vitest';
import { compileDialPattern, extendDialOfApp, isDialOfApp, readDialString } from './dial';

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

  it('reads a segment of several tags in linear time (no backtracking through its lazy groups)', () => {
    const pattern = compileDialPattern('*920*{a}0{b}0{c}0{d}x#');
    expect(readDialString(pattern, '*920*10203040x#', 10).vars).toEqual({ a: '1', b: '2', c: '3', d: '40' });
    // JavaScript's engine tried every way to place the three 0s: about a minute for this 990-character part.
    expect(readDialString(pattern, `*920*${'0'.repeat(990)}#`, 10)).toEqual({ vars: {}, inputs: [] });
    expect(readDialString(compileDialPattern('*920*{a}.{b}#'), '*920*1x2#', 10).vars).toEqual({});
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

describe('isDialOfApp', () => {
  const isOf = (code: string, dial: string) => isDialOfApp(compileDialPattern(code), dial);

  it("takes the app's own code and its deep dials, and nothing else", () => {
    expect(isOf('*920*55#', '*920*55#')).toBe(true);
    expect(isOf('*920*55#', '*920*55*1*2#')).toBe(true);
    expect(isOf('*920*12#', '*920*12*1#')).toBe(true);
    expect(isOf('*920*55#', '*1#')).toBe(false);
    expect(isOf('*920*55#', '*920#')).toBe(false);
    expect(isOf('*920*55#', '*920*5#')).toBe(false);
    expect(isOf('*920*55#', '*920*555#')).toBe(false);
    expect(isOf('*920*55#', '*92055#')).toBe(false);
    expect(isOf('*920*55#', '#')).toBe(false);
    expect(isOf('*920*55#', '')).toBe(false);
  });

  it('takes the values of template tags, and a dial that leaves the last tags out', () => {
    expect(isOf('*920*{merchantCode}*{amount}#', '*920*12*50#')).toBe(true);
    expect(isOf('*920*{merchantCode}*{amount}#', '*920*12#')).toBe(true);
    expect(isOf('*920*{merchantCode}*{amount}#', '*921*12*50#')).toBe(false);
    expect(isOf('*920*M{code}#', '*920*M77#')).toBe(true);
    expect(isOf('*920*M{code}#', '*920*X77#')).toBe(false);
    // A fixed part after a tag must be dialled too.
    expect(isOf('*920*{code}*7#', '*920*5*7#')).toBe(true);
    expect(isOf('*920*{code}*7#', '*920*5#')).toBe(false);
  });

  it('lets an app without a code answer to any string', () => {
    expect(isOf('', '*1#')).toBe(true);
  });

  it('reads a long hostile string in bounded time', () => {
    expect(isOf('*920*55#', `*920*55${'*'.repeat(100_000)}#`)).toBe(true);
    expect(isOf('*920*{a}0{b}0{c}x#', `*920*${'0'.repeat(990)}#`)).toBe(false);
  });
});

describe('extendDialOfApp', () => {
  it("fills the app's template tags, in order, with what followed the code dialled", () => {
    const pattern = compileDialPattern('*920*{merchantCode}*{amount}#');
    const dial = extendDialOfApp(pattern, ['12', '50']);
    expect(dial).toBe('*920*12*50#');
    expect(readDialString(pattern, dial, 10).vars).toEqual({ merchantCode: '12', amount: '50' });
    expect(extendDialOfApp(pattern, [])).toBe('*920#');
  });

  it("queues what followed as deep-dial input after an app's code without tags", () => {
    const pattern = compileDialPattern('*920*55#');
    const dial = extendDialOfApp(pattern, ['1', '2']);
    expect(dial).toBe('*920*55*1*2#');
    expect(readDialString(pattern, dial, 10).inputs).toEqual(['1', '2']);
    expect(extendDialOfApp(pattern, [])).toBe('*920*55#');
    expect(isDialOfApp(pattern, extendDialOfApp(pattern, []))).toBe(true);
  });

  it('gives an app without a code only what followed', () => {
    expect(extendDialOfApp(compileDialPattern(''), ['5'])).toBe('*5#');
    expect(extendDialOfApp(compileDialPattern(''), [])).toBe('');
  });
});
