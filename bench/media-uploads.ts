/**
 * What the limits on uploads (docs/media.md, "Limits on uploads") save: the server as `npm start` runs it
 * (bench/shipped.ts: the embedded database, the database store), with BILLING=off so no quota stops the rounds,
 * signed in as the seeded demo account. Each case starts a fresh server, so its peak RSS (VmHWM) is the case's:
 *   - one 100 MB document, alone: what the largest file costs while it is stored;
 *   - a burst of `--burst` documents of `--mb` MB from the account at once, with the limits as shipped (two at once);
 *   - the same burst with the bounds lifted (as many at once as the burst, a budget of 4 GB): what they prevent;
 *   - the 100 MB document on PostgreSQL (a scratch database through `--postgres`, an admin URL) and on S3 (s3rver).
 *
 *   npx tsx bench/media-uploads.ts
 *   npx tsx bench/media-uploads.ts --burst=6 --mb=40 --postgres=postgres://postgres@127.0.0.1:5432/postgres
 */
import type { ChildProcess } from 'node:child_process';
import { startS3Server } from '../tests/support/s3-server';
import { createScratchDatabase, DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';
import { readMemoryMb, ShippedServer, signInAsDemo } from './shipped';

const args = readBenchArgs();
const burst = Number(args.burst ?? 6);
const MB = 1024 * 1024;
const burstBytes = Number(args.mb ?? 40) * MB;

/** A text document of `size` bytes (text has no signature: printable bytes are one). */
const makeText = (size: number) => Buffer.alloc(size, 'Order 42, total 10 GHS\n');

async function runCase(label: string, env: Record<string, string>, files: Buffer[]): Promise<void> {
  const children: ChildProcess[] = [];
  const server = await ShippedServer.start({ env: { BILLING: 'off', ...env }, nodeFlags: [], console: true }, (p) => children.push(p));
  try {
    const auth = await signInAsDemo(server.baseUrl);
    const pid = server.pids[0]!;
    const before = readMemoryMb(pid);
    const started = performance.now();
    const answers = await Promise.all(
      files.map(async (file) => {
        const res = await fetch(`${server.baseUrl}/api/media?kind=document`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'text/plain' },
          body: new Uint8Array(file),
        });
        const body = (await res.json()) as { code?: string };
        return `${res.status}${body.code ? ` ${body.code}` : ''}`;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = readMemoryMb(pid);
    const tally = [...new Set(answers)].map((answer) => `${answers.filter((a) => a === answer).length} × ${answer}`).join(', ');
    console.log(
      `${label}: ${files.length} × ${(files[0]!.length / MB).toFixed(0)} MB at once -> ${tally} in ${seconds.toFixed(1)} s; ` +
        `RSS ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB (+${(after.peak - before.rss).toFixed(0)}), ${after.rss.toFixed(0)} MB after`,
    );
  } finally {
    await server.stop();
    server.remove();
  }
}

await runCase('one largest document, as shipped', {}, [makeText(100 * MB)]);
const files = Array.from({ length: burst }, () => makeText(burstBytes));
await runCase('a burst, limits as shipped', {}, files);
await runCase(
  'the same burst, bounds lifted',
  { MEDIA_UPLOADS_PER_ACCOUNT: String(burst), MEDIA_UPLOAD_BUFFER_BYTES: String(4096 * MB) },
  files,
);

// The largest document on the other stores: PostgreSQL (a scratch database) and S3 (s3rver in this process).
const scratch = await createScratchDatabase(readBenchArgs().postgres ?? DEFAULT_POSTGRES_URL, 'media');
try {
  await runCase('one largest document, PostgreSQL', { DATABASE_URL: scratch.url }, [makeText(100 * MB)]);
} finally {
  await scratch.drop();
}
const s3 = await startS3Server('bench-media-uploads');
try {
  const { settings } = s3;
  await runCase(
    'one largest document, S3 (s3rver)',
    {
      MEDIA_STORE: 's3',
      MEDIA_S3_ENDPOINT: settings.endpoint,
      MEDIA_S3_BUCKET: settings.bucket,
      MEDIA_S3_ACCESS_KEY_ID: settings.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    },
    [makeText(100 * MB)],
  );
} finally {
  await s3.close();
}
