import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeDb, type TestDatabase } from '../../../../tests/support/test-db';
import { startS3Server, type TestS3Server } from '../../../../tests/support/s3-server';
import { runMediaStoreContract } from './media-store.contract';
import { createDatabaseMediaStore, createS3MediaStore, type MediaStore } from './media-store';

describeDb('the database media store', () => {
  let testDb: TestDatabase;
  let store: MediaStore;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    store = createDatabaseMediaStore(testDb.database);
  });
  afterAll(() => testDb?.close());
  runMediaStoreContract(() => store);
});

describe('the S3 media store (against s3rver)', () => {
  let s3: TestS3Server;
  let store: MediaStore;
  beforeAll(async () => {
    s3 = await startS3Server();
    store = createS3MediaStore(s3.settings);
  });
  afterAll(() => s3?.close());
  runMediaStoreContract(() => store);

  it('throws when the server is down', async () => {
    const down = createS3MediaStore({ ...s3.settings, endpoint: 'http://127.0.0.1:1' });
    await expect(down.put('x/down', Buffer.from('a'), 'text/plain')).rejects.toThrow();
  });
});
