import { describe, expect, it } from 'vitest';
import { LINK_STATUSES } from '../../../shared/whatsapp';
import {
  hasQrButton,
  isLinking,
  isLinkSettled,
  isPhoneNumberId,
  LINK_POLL_INTERVAL_MS,
  LINK_POLL_MAX_CHECKS,
  LINK_STATUS_COLORS,
  NUMBER_LIST_RELOAD_DELAY_MS,
  QR_CANVAS_OPTIONS,
  readLinkStatus,
} from './linked-number-link';

describe('linking a number', () => {
  it("keeps the product's constants: every 10 s, 15 checks, the list 12 s after closing, a 400 px QR with margin 4", () => {
    expect([LINK_POLL_INTERVAL_MS, LINK_POLL_MAX_CHECKS, NUMBER_LIST_RELOAD_DELAY_MS]).toEqual([10_000, 15, 12_000]);
    expect(QR_CANVAS_OPTIONS).toEqual({ width: 400, margin: 4 });
  });

  it('colours the badges: CONNECTED green, PENDING yellow, QR blue, FAILED and DISCONNECTED red', () => {
    expect(LINK_STATUS_COLORS).toEqual({ CONNECTED: 'green', PENDING: 'yellow', QR: 'blue', FAILED: 'red', DISCONNECTED: 'red' });
  });

  it('reads the top-level linkStatus and qrCode of a link status reply', () => {
    expect(readLinkStatus({ status: '00', message: 'OK', linkStatus: 'QR', qrCode: 'http://x/whatsapp-simulator/1?secret=s' })).toEqual({
      linkStatus: 'QR',
      qrCode: 'http://x/whatsapp-simulator/1?secret=s',
    });
    expect(readLinkStatus({ status: '00', linkStatus: 'CONNECTED' })).toEqual({ linkStatus: 'CONNECTED', qrCode: null });
  });

  it('reads nothing from a refusal, no answer or an unknown status', () => {
    expect(readLinkStatus({ status: '04', message: 'Linked number not found' })).toBeNull();
    expect(readLinkStatus({})).toBeNull();
    expect(readLinkStatus({ status: '00', linkStatus: 'SCANNED', qrCode: null })).toBeNull();
  });

  it('stops polling on CONNECTED and FAILED only', () => {
    expect(LINK_STATUSES.filter(isLinkSettled)).toEqual(['CONNECTED', 'FAILED']);
  });

  it('the list polls the rows still linking: PENDING and QR', () => {
    expect(LINK_STATUSES.filter(isLinking)).toEqual(['PENDING', 'QR']);
  });

  it('offers the QR on every row but a PENDING one', () => {
    expect(LINK_STATUSES.filter(hasQrButton)).toEqual(['QR', 'CONNECTED', 'FAILED', 'DISCONNECTED']);
  });

  it('takes a Cloud API phone number ID as digits only', () => {
    expect(isPhoneNumberId('106540352242922')).toBe(true);
    expect(isPhoneNumberId(' 106540352242922 ')).toBe(true);
    expect(isPhoneNumberId('+233 20 000 0000')).toBe(false);
    expect(isPhoneNumberId('')).toBe(false);
  });
});
