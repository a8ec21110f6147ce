import { describe, expect, it } from 'vitest';
import { designScreenLimit, gatewayConnectionsSchema, GATEWAY_CONNECTION_MESSAGES, type GatewayConnection } from '../gateway-profiles';
import { getScreenLimit, WHATSAPP_SCREEN_LIMIT } from './app-version.schema';

const connect = (gateway: GatewayConnection['gateway'], narrower: Partial<GatewayConnection> = {}): GatewayConnection => ({
  gateway,
  screenLimit: null,
  budgetMs: null,
  ...narrower,
});

describe('designScreenLimit', () => {
  it("is the app's own limit with no connection, or when every connected gateway carries at least as much", () => {
    expect(designScreenLimit(160, [])).toEqual({ limit: 160, gateway: null });
    expect(designScreenLimit(160, [connect('africastalking'), connect('hubtel')])).toEqual({ limit: 160, gateway: null });
    expect(designScreenLimit(100, [connect('nalo')])).toEqual({ limit: 100, gateway: null });
  });

  it('is the strictest connected gateway, named; a connection that narrows its gateway narrows it further', () => {
    expect(designScreenLimit(182, [connect('africastalking'), connect('nalo'), connect('hubtel')])).toEqual({
      limit: 120,
      gateway: 'nalo',
    });
    expect(designScreenLimit(182, [connect('africastalking')])).toEqual({ limit: 182, gateway: null });
    expect(designScreenLimit(160, [connect('nalo'), connect('hubtel', { screenLimit: 90 })])).toEqual({ limit: 90, gateway: 'hubtel' });
  });
});

describe('getScreenLimit', () => {
  it("holds a USSD app to designScreenLimit's limit, and a bot to a WhatsApp message's whatever it is connected to", () => {
    expect(getScreenLimit({ channel: 'ussd', screenLimit: 160 })).toBe(160);
    expect(getScreenLimit({ channel: 'ussd', screenLimit: 160, gatewayConnections: [connect('nalo')] })).toBe(120);
    expect(getScreenLimit({ channel: 'ussd', screenLimit: 160, gatewayConnections: [connect('nalo', { screenLimit: 70 })] })).toBe(70);
    expect(getScreenLimit({ channel: 'whatsapp', screenLimit: 160, gatewayConnections: [connect('nalo')] })).toBe(WHATSAPP_SCREEN_LIMIT);
  });
});

describe('gatewayConnectionsSchema', () => {
  it('refuses a gateway connected twice, a limit or budget wider than the gateway, and a budget under the minimum', () => {
    const messages = (input: unknown) => {
      const parsed = gatewayConnectionsSchema.safeParse(input);
      return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(messages([connect('nalo'), connect('nalo')])).toEqual([['1.gateway', GATEWAY_CONNECTION_MESSAGES.duplicate]]);
    expect(messages([connect('nalo', { screenLimit: 150 })])).toEqual([
      ['0.screenLimit', GATEWAY_CONNECTION_MESSAGES.screenWider('Nalo', 120)],
    ]);
    expect(messages([connect('emergent', { budgetMs: 8000 })])).toEqual([
      ['0.budgetMs', GATEWAY_CONNECTION_MESSAGES.budgetWider('Emergent', 5000)],
    ]);
    expect(messages([connect('nalo', { budgetMs: 1500 })])).toEqual([['0.budgetMs', GATEWAY_CONNECTION_MESSAGES.budgetTooShort]]);
    expect(messages([connect('nalo', { screenLimit: 59.5 })])).toEqual([['0.screenLimit', GATEWAY_CONNECTION_MESSAGES.screenRange]]);
    expect(messages([connect('nalo', { screenLimit: 100, budgetMs: 6000 }), connect('africastalking')])).toEqual([]);
  });
});
