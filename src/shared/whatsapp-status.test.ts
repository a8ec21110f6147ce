import { describe, expect, it } from 'vitest';
import { isDeliveryStatus, isStatusForward, statusesBefore } from './whatsapp-status';

describe('delivery status order', () => {
  it('moves forward only: read beats delivered beats sent', () => {
    expect(isStatusForward('sent', 'delivered')).toBe(true);
    expect(isStatusForward('delivered', 'read')).toBe(true);
    expect(isStatusForward('sent', 'read')).toBe(true);
    expect(isStatusForward('read', 'delivered')).toBe(false);
    expect(isStatusForward('delivered', 'sent')).toBe(false);
    expect(isStatusForward('read', 'sent')).toBe(false);
  });

  it('the same status twice changes nothing', () => {
    for (const s of ['sent', 'delivered', 'read', 'failed'] as const) expect(isStatusForward(s, s)).toBe(false);
  });

  it('a failure beats sent only; delivered after a failure wins', () => {
    expect(isStatusForward('sent', 'failed')).toBe(true);
    expect(isStatusForward('delivered', 'failed')).toBe(false);
    expect(isStatusForward('read', 'failed')).toBe(false);
    expect(isStatusForward('failed', 'sent')).toBe(false);
    expect(isStatusForward('failed', 'delivered')).toBe(true);
  });

  it('names the states a status may move from', () => {
    expect(statusesBefore('read')).toEqual(['sent', 'delivered', 'failed']);
    expect(statusesBefore('delivered')).toEqual(['sent', 'failed']);
    expect(statusesBefore('failed')).toEqual(['sent']);
    expect(statusesBefore('sent')).toEqual([]);
  });

  it('reads a status from the wire', () => {
    expect(isDeliveryStatus('read')).toBe(true);
    expect(isDeliveryStatus('deleted')).toBe(false);
    expect(isDeliveryStatus(3)).toBe(false);
  });
});
