import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/server/features/media/media-store';

/** s3rver's fixed credentials: it checks every request's Signature V4 against them. */
const S3RVER_KEY = 'S3RVER';

export interface TestS3Server {
  settings: S3Settings;
  close(): Promise<void>;
}

/** A local S3-compatible server on 127.0.0.1 (a free port), with one bucket, its files in a temporary folder. */
export async function startS3Server(bucket = 'media-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = (await server.run()) as AddressInfo;
  return {
    settings: {
      endpoint: `http://127.0.0.1:${address.port}`,
      bucket,
      region: 'us-east-1',
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
