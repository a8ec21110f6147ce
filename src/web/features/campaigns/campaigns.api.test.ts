import { describe, expect, it } from 'vitest';
import { listSlugOf, listTagOf, withOptOut } from './campaigns.api';

describe("a campaign's SMS and CSV in the form", () => {
  it('the SMS goes out with the opt-out line on a line of its own, or alone without one', () => {
    expect(withOptOut('Dial *920*64# to see our offers', 'Reply STOP to opt out')).toBe(
      'Dial *920*64# to see our offers\nReply STOP to opt out',
    );
    expect(withOptOut('Dial *920*64#', '')).toBe('Dial *920*64#');
  });

  it("a CSV's name becomes its list tag: lower case, dashes for the rest, csv when nothing is left", () => {
    expect(listSlugOf('Spring Offers.csv')).toBe('spring-offers');
    expect(listSlugOf('  __Kumasi  (May) 2026.CSV')).toBe('kumasi-may-2026');
    expect(listSlugOf('ɛŋ.csv')).toBe('csv');
    expect(listTagOf('Spring Offers.csv')).toBe('list=spring-offers');
  });
});
