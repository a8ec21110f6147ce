import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 now, for a test server that must know its own address before it listens: its
 * PUBLIC_URL is where payment pages (the sandbox checkout) and mailed links point, and a browser follows them.
 */
export async function findFreePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}
