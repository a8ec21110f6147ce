import { describe, expect, it } from 'vitest';
import { isSmsSender } from './sms-sender';

describe('an SMS sender', () => {
  it('is empty (the default), a name of at most 11 letters and digits, or a shortcode or number', () => {
    expect(['', 'Adwoa', 'AdwoaShop01', 'A&B Foods', '1444', '+233244000111'].map(isSmsSender)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
  it('is not a name of 12 characters, one with other signs, or a number too short or too long', () => {
    expect(['AdwoaShop012', 'Shop!', '-Shop', '+12', '+2332440001112345'].map(isSmsSender)).toEqual([false, false, false, false, false]);
  });
});
