/**
 * Storing and serving a 5 MB image (docs/media.md) through the server as `npm start` runs it (bench/shipped.ts:
 * default settings, the embedded database), then the same with MEDIA_STORE=s3 against s3rver on 127.0.0.1 (in
 * this process). Each round uploads a ~4.8 MB PNG of noise as the console does (POST /api/media, signed in as
 * the seeded demo account, a Trial account: its 50 MB quota bounds the rounds) and fetches it back by its signed
 * link. Prints the median and worst time of each, and the server's RSS before, after and at its peak (VmHWM).
 *
 *   npx tsx bench/media.ts               # 6 rounds on each back end
 *   npx tsx bench/media.ts --rounds=3
 */
import type { ChildProcess } from 'node:child_process';
import { makePng } from '../tests/support/media-files';
import { startS3Server } from '../tests/support/s3-server';
import { readMemoryMb, ShippedServer, signInAsDemo } from './shipped';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const rounds = Number(args.rounds ?? 6);
const png = makePng(1290, 1290, { noise: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const children: ChildProcess[] = [];
  const server = await ShippedServer.start({ env, nodeFlags: ['--max-semi-space-size=32'], console: true }, (p) => children.push(p));
  try {
    const auth = await signInAsDemo(server.baseUrl);
    const pid = server.pids[0]!;
    const before = readMemoryMb(pid);
    const stores: number[] = [];
    const serves: number[] = [];
    for (let round = 0; round < rounds; round++) {
      let started = performance.now();
      const res = await fetch(`${server.baseUrl}/api/media?kind=image`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'image/png' },
        body: new Uint8Array(png),
      });
      const body = (await res.json()) as { data?: { url: string }; message: string };
      if (res.status !== 200 || !body.data) throw new Error(`upload ${round + 1}: ${res.status} ${body.message}`);
      stores.push(performance.now() - started);
      const url = new URL(body.data.url);
      started = performance.now();
      const file = await fetch(`${server.baseUrl}${url.pathname}${url.search}`);
      const bytes = Buffer.from(await file.arrayBuffer());
      serves.push(performance.now() - started);
      if (file.status !== 200 || !bytes.equals(png)) throw new Error(`serve ${round + 1}: ${file.status}, ${bytes.length} bytes`);
    }
    const after = readMemoryMb(pid);
    console.log(
      `${label}: ${rounds} × ${(png.length / 1024 / 1024).toFixed(2)} MB PNG; store median ${ms(median(stores))} (worst ${ms(Math.max(...stores))}, first ${ms(stores[0]!)}), ` +
        `serve median ${ms(median(serves))} (worst ${ms(Math.max(...serves))}); RSS ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MB, peak ${after.peak.toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
    server.remove();
  }
}

await measure('database (default, embedded PGlite)', {});
const s3 = await startS3Server('bench-media');
try {
  const { settings } = s3;
  await measure('s3 (s3rver on 127.0.0.1)', {
    MEDIA_STORE: 's3',
    MEDIA_S3_ENDPOINT: settings.endpoint,
    MEDIA_S3_BUCKET: settings.bucket,
    MEDIA_S3_ACCESS_KEY_ID: settings.accessKeyId,
    MEDIA_S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
  });
} finally {
  await s3.close();
}
