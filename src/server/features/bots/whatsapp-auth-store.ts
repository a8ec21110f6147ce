/**
 * A linked device's keys in the database (`whatsapp_auth_keys`), the way Baileys keeps them in files
 * (useMultiFileAuthState): the credentials as one row (type `creds`, key id ''), every signal key as a row by
 * (type, id), values as BufferJSON text. Each value is encrypted at rest (AES-256-GCM under the key derived from
 * WHATSAPP_CREDENTIALS_KEY): whoever reads these rows could otherwise act as the linked WhatsApp number.
 *
 * A stored value is sealed text (server/sealed-text.ts). The row's (link, type, key id) is the
 * cipher's additional data, so a value copied into another row or another link does not decrypt.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from 'baileys';
import type { Db } from '../../../db/client';
import { whatsappAuthKeys } from '../../../db/schema';
import type { AuthStateStore } from '../../../integrations/whatsapp/baileys';
import { openText, sealText } from '../../sealed-text';

const CREDS_TYPE = 'creds';
/** Rows written per statement: a first link stores hundreds of pre-keys at once. */
const ROWS_PER_INSERT = 500;

export interface WhatsAppAuthStoreOptions {
  /** 32 bytes: the AES-256 key (the server derives it from WHATSAPP_CREDENTIALS_KEY). */
  key: Buffer;
}

/** The parts of Baileys the store needs, loaded on first use (Baileys is large and ESM-only). */
async function loadBaileys() {
  const { BufferJSON, initAuthCreds, proto } = await import('baileys');
  return { BufferJSON, initAuthCreds, proto };
}

export function createWhatsAppAuthStore(db: Db, options: WhatsAppAuthStoreOptions): AuthStateStore {
  if (options.key.length !== 32)
    throw new Error('The WhatsApp credentials key must be 32 bytes (WHATSAPP_CREDENTIALS_KEY: 64 hex characters)');
  const key = Buffer.from(options.key);
  let baileys: ReturnType<typeof loadBaileys> | undefined;
  const getBaileys = () => {
    baileys ??= loadBaileys();
    return baileys;
  };
  /** Each link's writes in the order they were asked for: an older key write must never land after a newer one. */
  const writes = new Map<string, Promise<unknown>>();

  function inOrder<T>(linkId: string, write: () => Promise<T>): Promise<T> {
    const next = (writes.get(linkId) ?? Promise.resolve()).then(write, write);
    const settled = next.catch(() => {});
    writes.set(linkId, settled);
    void settled.then(() => {
      if (writes.get(linkId) === settled) writes.delete(linkId);
    });
    return next;
  }

  const toAad = (linkId: string, type: string, keyId: string) => `${linkId}\n${type}\n${keyId}`;

  const encrypt = (plain: string, linkId: string, type: string, keyId: string) => sealText(key, plain, toAad(linkId, type, keyId));

  function decrypt(stored: string, linkId: string, type: string, keyId: string): string {
    try {
      return openText(key, stored, toAad(linkId, type, keyId));
    } catch {
      // GCM cannot tell a wrong key from a damaged value; a wrong key is by far the likelier.
      throw new Error(
        `The WhatsApp credentials of link ${linkId} cannot be decrypted: WHATSAPP_CREDENTIALS_KEY is not the key they were saved with (set the original key, or link the number again)`,
      );
    }
  }

  async function readRows(linkId: string, type: string, keyIds: string[]) {
    if (keyIds.length === 0) return [];
    return db
      .select({ keyId: whatsappAuthKeys.keyId, value: whatsappAuthKeys.value })
      .from(whatsappAuthKeys)
      .where(and(eq(whatsappAuthKeys.linkId, linkId), eq(whatsappAuthKeys.type, type), inArray(whatsappAuthKeys.keyId, keyIds)));
  }

  async function upsertRows(tx: Db, rows: Array<{ linkId: string; type: string; keyId: string; value: string }>) {
    const updatedAt = new Date();
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await tx
        .insert(whatsappAuthKeys)
        .values(rows.slice(i, i + ROWS_PER_INSERT).map((row) => ({ ...row, updatedAt })))
        .onConflictDoUpdate({
          target: [whatsappAuthKeys.linkId, whatsappAuthKeys.type, whatsappAuthKeys.keyId],
          set: { value: sql`excluded.value`, updatedAt },
        });
    }
  }

  function createKeyStore(linkId: string, { BufferJSON, proto }: Awaited<ReturnType<typeof loadBaileys>>): SignalKeyStore {
    return {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const found: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const row of await readRows(linkId, type, [...new Set(ids)])) {
          const value: unknown = JSON.parse(decrypt(row.value, linkId, type, row.keyId), BufferJSON.reviver);
          // Stored by set() under this type, so it is that type's value; app-state keys must be protobuf objects again.
          found[row.keyId] = (
            type === 'app-state-sync-key' && isRecord(value) ? proto.Message.AppStateSyncKeyData.fromObject(value) : value
          ) as SignalDataTypeMap[T];
        }
        return found;
      },
      async set(data: SignalDataSet) {
        const upserts: Array<{ linkId: string; type: string; keyId: string; value: string }> = [];
        const deletes = new Map<string, string[]>();
        for (const [type, values] of Object.entries(data)) {
          for (const [keyId, value] of Object.entries(values ?? {})) {
            if (value === null || value === undefined) deletes.set(type, [...(deletes.get(type) ?? []), keyId]);
            else upserts.push({ linkId, type, keyId, value: encrypt(JSON.stringify(value, BufferJSON.replacer), linkId, type, keyId) });
          }
        }
        if (upserts.length === 0 && deletes.size === 0) return;
        await inOrder(linkId, () =>
          db.transaction(async (tx) => {
            for (const [type, keyIds] of deletes) {
              await tx
                .delete(whatsappAuthKeys)
                .where(and(eq(whatsappAuthKeys.linkId, linkId), eq(whatsappAuthKeys.type, type), inArray(whatsappAuthKeys.keyId, keyIds)));
            }
            await upsertRows(tx, upserts);
          }),
        );
      },
    };
  }

  return {
    async load(linkId) {
      const loaded = await getBaileys();
      const [row] = await readRows(linkId, CREDS_TYPE, ['']);
      // Parsed from what saveCreds wrote: Baileys' own credentials object, Buffers revived.
      const creds: AuthenticationCreds = row
        ? (JSON.parse(decrypt(row.value, linkId, CREDS_TYPE, ''), loaded.BufferJSON.reviver) as AuthenticationCreds)
        : loaded.initAuthCreds();
      return {
        state: { creds, keys: createKeyStore(linkId, loaded) },
        saveCreds: () =>
          inOrder(linkId, async () => {
            // Serialised when the write's turn comes: it stores the credentials as they are then, the newest.
            const value = encrypt(JSON.stringify(creds, loaded.BufferJSON.replacer), linkId, CREDS_TYPE, '');
            await upsertRows(db, [{ linkId, type: CREDS_TYPE, keyId: '', value }]);
          }),
      };
    },
    clear: (linkId) =>
      inOrder(linkId, async () => {
        await db.delete(whatsappAuthKeys).where(eq(whatsappAuthKeys.linkId, linkId));
      }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
