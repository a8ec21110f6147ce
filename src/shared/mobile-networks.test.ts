import { describe, expect, it } from 'vitest';
import { MOBILE_NETWORKS } from './mobile-networks.data';
import { describeNetwork } from './mobile-networks';

describe('describeNetwork', () => {
  it('names the network codes of the gateways’ countries and keeps the code', () => {
    expect(describeNetwork('62001')).toEqual({ name: 'MTN', code: '62001', detail: 'MTN Ghana, network code 62001' });
    expect(describeNetwork('62002')).toEqual({
      name: 'Telecel',
      code: '62002',
      detail: 'Telecel Ghana (formerly Vodafone), network code 62002',
    });
    expect(describeNetwork('62003').name).toBe('AT');
    expect(describeNetwork('62006').name).toBe('AT');
    expect(describeNetwork('62130')).toMatchObject({ name: 'MTN', code: '62130', detail: 'MTN Nigeria, network code 62130' });
    expect(describeNetwork('63902')).toMatchObject({ name: 'Safaricom', detail: expect.stringContaining('Kenya') });
    expect(describeNetwork('64002')).toMatchObject({ name: 'Yas', detail: expect.stringContaining('formerly Tigo') });
    expect(describeNetwork('64110').name).toBe('MTN');
    expect(describeNetwork('63513').name).toBe('Airtel');
    expect(describeNetwork('64502').name).toBe('MTN');
    expect(describeNetwork('61203').name).toBe('Orange');
    expect(describeNetwork('60801').name).toBe('Orange');
    expect(describeNetwork('62401').name).toBe('MTN');
  });

  it('reads the spaced and dashed forms of a code', () => {
    expect(describeNetwork(' 620 01 ')).toMatchObject({ name: 'MTN', code: '62001' });
    expect(describeNetwork('639-07')).toMatchObject({ name: 'Telkom', code: '63907' });
  });

  it('shows a code missing from the table as the code, and says so on hover', () => {
    expect(describeNetwork('99999')).toEqual({
      name: '99999',
      code: '99999',
      detail: 'Network code 99999, not in the table of known networks',
    });
  });

  it('keeps names sent by a gateway, spelt as the brand', () => {
    expect(describeNetwork('MTN')).toEqual({ name: 'MTN', code: '', detail: 'Sent by the gateway as "MTN"' });
    expect(describeNetwork('mtn')).toMatchObject({ name: 'MTN', code: '' });
    expect(describeNetwork('vodafone')).toMatchObject({ name: 'Vodafone', detail: 'Sent by the gateway as "vodafone"' });
    expect(describeNetwork('airteltigo').name).toBe('AirtelTigo');
    expect(describeNetwork('Safaricom').name).toBe('Safaricom');
    expect(describeNetwork('Some Telco').name).toBe('Some Telco');
  });

  it('says Unknown when the gateway did not name the network', () => {
    for (const sent of ['', ' ', 'unknown', 'UNKNOWN'])
      expect(describeNetwork(sent)).toEqual({ name: 'Unknown', code: '', detail: 'The gateway did not say which network' });
  });
});

describe('the table of mobile networks', () => {
  it('holds each code once, as MCC + MNC digits, with a name and a country', () => {
    const codes = MOBILE_NETWORKS.map((n) => n.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const network of MOBILE_NETWORKS) {
      expect(network.code).toMatch(/^6\d{4,5}$/);
      expect(network.name.trim()).not.toBe('');
      expect(network.country.trim()).not.toBe('');
    }
  });

  it('covers the countries the gateways serve', () => {
    const prefixes = new Set(MOBILE_NETWORKS.map((n) => n.code.slice(0, 3)));
    // Ghana, Nigeria, Kenya, Tanzania, Uganda, Rwanda, Zambia, Malawi, Côte d'Ivoire, Senegal, Cameroon, South Africa, Eswatini, Burundi, Ethiopia.
    for (const mcc of ['620', '621', '639', '640', '641', '635', '645', '650', '612', '608', '624', '655', '653', '642', '636'])
      expect(prefixes, mcc).toContain(mcc);
  });
});
