import { describe, expect, it } from 'vitest';
import { findFullerText } from './toast';

describe('findFullerText', () => {
  it.each([
    ['Provider registered', 'Provider registered'],
    ['Provider registered', 'Provider registered.'],
    ['Merchant registered', 'merchant registered!'],
    ['Saved', 'Menu saved'],
    ['Deleted', 'Menu deleted'],
    ['Copied', 'Copied'],
  ])('%s / %s: the message says it all', (title, message) => {
    expect(findFullerText(title, message)).toBe('message');
  });

  it.each([
    ['Merchant assigned', 'Assigned'],
    ['WhatsApp bots saved', 'Saved.'],
  ])('%s / %s: the title says it all', (title, message) => {
    expect(findFullerText(title, message)).toBe('title');
  });

  it.each([
    ['Provider registered', 'Acme Telecom was registered.'],
    ['Not changed', 'The access could not be changed.'],
    ['Saved', 'The menu order could not be saved because another edit came first'],
    ['Secret rotated', 'Copy the new secret to your endpoint.'],
    ['Test', 'Function ran'],
  ])('%s / %s: both are shown', (title, message) => {
    expect(findFullerText(title, message)).toBeNull();
  });
});
