/**
 * For the adapters' tests: gateway requests as the server hands them over, and the ChannelError a bad one
 * raises. Not used by the adapters themselves.
 */
import { ChannelError, type GatewayRequest } from './types';

export const jsonRequest = (body: unknown): GatewayRequest => ({ method: 'POST', query: {}, body, contentType: 'application/json' });

export const formRequest = (body: unknown): GatewayRequest => ({
  method: 'POST',
  query: {},
  body,
  contentType: 'application/x-www-form-urlencoded',
});

/** The ChannelError `fn` throws; any other outcome (no error, another error) fails the test. */
export function catchChannelError(fn: () => unknown): ChannelError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ChannelError) return err;
    throw err;
  }
  throw new Error('expected a ChannelError');
}
