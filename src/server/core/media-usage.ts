import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mediaFiles } from '../../db/schema';

/**
 * The bytes of the account's files not yet deleted: what its plan's media quota counts. Read by the media area
 * (checking the quota before a file is stored) and billing (the usage bars).
 */
export async function sumLiveBytes(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${mediaFiles.size}), 0)` })
    .from(mediaFiles)
    .where(and(eq(mediaFiles.ownerId, accountId), isNull(mediaFiles.deletedAt)));
  return Number(row?.total ?? 0);
}
