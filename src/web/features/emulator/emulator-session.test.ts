import { describe, expect, it } from 'vitest';
import {
  createSessionId,
  formatSessionId,
  isUssdCode,
  splitMenuLines,
  toDialDigits,
  toEmulatorErrorText,
  toMsisdn,
} from './emulator-session';

describe('formatSessionId', () => {
  it('formats the local time as yyyyMMddHHmmss', () => {
    expect(formatSessionId(new Date(2024, 0, 31, 9, 5, 7))).toBe('20240131090507');
  });

  it('pads every part and keeps 24-hour time', () => {
    expect(formatSessionId(new Date(2025, 11, 1, 23, 59, 59))).toBe('20251201235959');
    expect(formatSessionId(new Date(2026, 8, 9, 0, 0, 0))).toBe('20260909000000');
  });

  it('always gives 14 digits', () => {
    expect(formatSessionId(new Date())).toMatch(/^\d{14}$/);
  });
});

describe('createSessionId', () => {
  it('starts with the time of the dial and ends with 128 random bits', () => {
    const id = createSessionId(new Date(2024, 0, 31, 9, 5, 7), new Uint8Array(16).fill(255));
    expect(id).toBe('20240131090507-_____________________w');
    expect(createSessionId(new Date(2024, 0, 31, 9, 5, 7), new Uint8Array(16))).toBe('20240131090507-AAAAAAAAAAAAAAAAAAAAAA');
  });

  it('gives two dials in the same second different ids', () => {
    const now = new Date();
    const ids = new Set(Array.from({ length: 100 }, () => createSessionId(now)));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^\d{14}-[A-Za-z0-9_-]{22}$/);
  });
});

describe('dial helpers', () => {
  it('keeps only what a dial pad can type', () => {
    expect(toDialDigits(' *920*13# ')).toBe('*920*13#');
    expect(toDialDigits('abc')).toBe('');
    expect(toDialDigits('1'.repeat(60))).toHaveLength(40);
  });

  it('recognises USSD codes, deep dials included', () => {
    expect(isUssdCode('*920*55#')).toBe(true);
    expect(isUssdCode('*920*55*1#')).toBe(true);
    expect(isUssdCode('*#')).toBe(false);
    expect(isUssdCode('0244000000')).toBe(false);
    expect(isUssdCode('*920*55')).toBe(false);
  });

  it('builds the error text', () => {
    expect(toEmulatorErrorText('App not found')).toBe('Error making webservice call : App not found');
  });

  it('splits menu text into lines', () => {
    expect(splitMenuLines('Pick one\r\n1. Yes\n2. No')).toEqual(['Pick one', '1. Yes', '2. No']);
  });
});

describe('toMsisdn', () => {
  it('keeps digits and a leading plus', () => {
    expect(toMsisdn(' +233 24 123-4567 ')).toBe('+233241234567');
    expect(toMsisdn('0244x000')).toBe('0244000');
  });
});
