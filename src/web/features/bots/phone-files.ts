import { useEffect, useRef } from 'react';
import { SIMULATED_FILE_MAX_BYTES } from '../../../shared/api/bots.schema';
import type { WhatsAppMessage } from '../../../shared/whatsapp';

/** What the simulated phone says of a file larger than the server takes from it, in the schema's words. */
export const SIMULATED_FILE_TOO_LARGE = `A file of at most ${SIMULATED_FILE_MAX_BYTES / 1024 / 1024} MB`;

/** A file's bytes as base64, as the simulated phone's message carries them. */
export async function readBase64(file: Blob): Promise<string> {
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}

const toKey = (fileName: string | undefined, size: number) => `${fileName ?? ''}\u0000${size}`;

/**
 * The files this phone sent, drawn from its own copy (a blob: link): the chat read back names a file the customer
 * sent by the phone's upload id, with no link (the server stores it for the bot, not for the phone). Found again by
 * name and size; the links are let go when the page closes.
 */
export function useSentFiles() {
  const urls = useRef(new Map<string, string>());
  useEffect(() => {
    const kept = urls.current;
    return () => {
      for (const url of kept.values()) URL.revokeObjectURL(url);
      kept.clear();
    };
  }, []);
  const files = useRef({
    /** Keeps the file's copy and answers its link. */
    keep(file: File): string {
      const key = toKey(file.name, file.size);
      const url = urls.current.get(key) ?? URL.createObjectURL(file);
      urls.current.set(key, url);
      return url;
    },
    /** The message with the phone's copy of its file linked, where it has one. */
    show(message: WhatsAppMessage): WhatsAppMessage {
      if (message.type !== 'media' || message.media.url) return message;
      const url = urls.current.get(toKey(message.media.fileName, message.media.size));
      return url ? { ...message, media: { ...message.media, url } } : message;
    },
  });
  return files.current;
}
