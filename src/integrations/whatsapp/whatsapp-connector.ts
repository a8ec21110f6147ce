/**
 * A WhatsApp connector: how linked numbers reach WhatsApp (docs/bots.md). WHATSAPP_CONNECTORS lists those offered,
 * and each linked number uses the one it was added with:
 * - `simulator` (the default): a local stand-in for WhatsApp. Linking shows a real QR code whose content opens
 *   a simulated phone page on this server; "scanning" there links the number, and the page is then a chat.
 * - `baileys`: a real number as a linked device (WhatsApp Web's protocol, through Baileys), linked by QR.
 * - `cloud`: the WhatsApp Cloud API, for businesses on Meta's official route; numbers are linked by their
 *   phone number id, messages arrive on a signed webhook.
 *
 * The server owns the links (rows in `whatsapp_links`) and the conversations; a connector only moves a link
 * through its states and carries messages, reporting both through {@link ConnectorEvents}.
 */
import type { MediaRef } from '../../shared/media';
import type { ChatMessage, ChatReply, InboundMedia, LinkStatus, WhatsAppConnectorName, WhatsAppMessage } from '../../shared/whatsapp';
import type { DeliveryUpdate, SentMessage } from '../../shared/whatsapp-status';
import type { RenderedTemplate } from '../../shared/whatsapp-templates';

/** A change of a link's state, as the connector saw it. */
export interface LinkUpdate {
  status: LinkStatus;
  /** The QR's content while `status` is QR (what the phone scans); null clears it. */
  qrCode?: string | null;
  /** The linked number (digits), once known. */
  mobileNumber?: string;
  /** Why it FAILED or was DISCONNECTED, in words for the console. */
  message?: string;
  /**
   * The connector's own address of the number, kept with the link and handed back on `startLink` after a
   * restart: the Cloud API's phone number id, the simulator's scan secret.
   */
  externalId?: string;
}

/** What a connector reports; the server stores the link's state and runs the bot on each message. */
export interface ConnectorEvents {
  onLinkUpdate(linkId: string, update: LinkUpdate): Promise<void>;
  /** One user's message, read and addressed to its link and conversation. */
  onMessage(message: ChatMessage): Promise<void>;
  /**
   * What became of a message the connector sent (delivered, read, failed), for the link it came for. Optional for
   * the tests' stand-ins; the server moves the recorded message forward (never back) or logs an unknown id.
   */
  onStatus?(update: DeliveryUpdate): Promise<void>;
}

export interface StartLinkOptions {
  /** Cloud API: the number's phone number id (required there, ignored by the QR connectors). */
  phoneNumberId?: string;
  /** Cloud API: the number's own access token; without it, the installation's. */
  accessToken?: string;
  /** True when the link was CONNECTED before a restart: reconnect with the stored credentials, no new QR. */
  resume?: boolean;
  /** On `resume`: the `externalId` the connector reported for the link. */
  externalId?: string;
}

/** A kind of message the bot sends (`text`, `list`, `media`, `link`, ...). */
export type WhatsAppMessageType = WhatsAppMessage['type'];

/** Every kind of message the bot sends, for a connector that shows them all as they are. */
export const WHATSAPP_MESSAGE_TYPES = [
  'text',
  'list',
  'buttons',
  'media',
  'location',
  'contact',
  'link',
  'locationRequest',
] as const satisfies readonly WhatsAppMessageType[];

/** A stored file's bytes, as a connector gets them to send a `media` message. */
export interface MediaFile {
  bytes: Uint8Array;
  /** The type read from the bytes when the file was stored. */
  mimeType: string;
  fileName?: string;
}

/**
 * How a connector gets the bytes of a file it must send (the server's media store). Every connector is created
 * with one; it rejects when the file cannot be read (gone, storage unavailable), and the send rejects with it.
 * @example readMedia({ mediaId: 'm-1', kind: 'document', mimeType: 'application/pdf', size: 5120 })
 *   -> { bytes: <5120 bytes>, mimeType: 'application/pdf', fileName: 'receipt.pdf' }
 */
export type ReadMedia = (ref: MediaRef) => Promise<MediaFile>;

/**
 * Why a user's file could not be fetched: `gone`, the provider no longer has it (a Cloud API media id Meta
 * answers 404 or "does not exist" for, past its 7 days; a Baileys message no longer kept or re-uploaded; a
 * simulator upload dropped); `too_large`, it is over the size asked for (nothing past that many bytes is kept);
 * `failed`, the provider could not be reached or refused (trying again may work).
 */
export type MediaDownloadFailure = 'gone' | 'too_large' | 'failed';

/** A failed {@link WhatsAppConnector.downloadMedia}: `reason` for the server's answer, the message for the log. */
export class MediaDownloadError extends Error {
  constructor(
    readonly reason: MediaDownloadFailure,
    message: string,
  ) {
    super(message);
    this.name = 'MediaDownloadError';
  }
}

export interface WhatsAppConnector {
  readonly name: WhatsAppConnectorName;
  /** True when the connector can show list and button messages; otherwise every reply is numbered text. */
  readonly supportsInteractive: boolean;
  /**
   * The kinds of message the connector shows as they are; `send` turns any other into its text
   * (`toPlainText`). Cloud API and simulator: all; a linked device: text, media, location and contact cards.
   */
  readonly nativeTypes: ReadonlySet<WhatsAppMessageType>;
  /**
   * The bytes of a file a user sent to a linked number (a message's `media`), at most `maxBytes` of them. Rejects
   * with a {@link MediaDownloadError}: `too_large` without reading more than `maxBytes + 1` bytes (and without
   * reading any when the provider gives the size first), `gone` when the provider no longer has it.
   */
  downloadMedia(linkId: string, media: InboundMedia, maxBytes: number): Promise<Uint8Array>;
  /**
   * Starts linking (or, with `resume`, reconnects a linked number). Resolves once the attempt is under way;
   * the outcome comes through `onLinkUpdate` (QR, then CONNECTED or FAILED).
   */
  startLink(linkId: string, options: StartLinkOptions): Promise<void>;
  /** Ends a link: logs the device out where the protocol has one, and forgets its credentials. */
  unlink(linkId: string): Promise<void>;
  /**
   * Cloud API only: whether `accessToken` (the claimer's own, not the installation's) reads the number, that is
   * Meta answers `GET /{phoneNumberId}` with that id. The proof that a number another account held is now yours.
   */
  canReadNumber?(phoneNumberId: string, accessToken: string): Promise<boolean>;
  /**
   * Sends a reply's messages, in order, to its user (`to`) from its linked number (`linkId`), each as it is: the
   * channel already kept them within WhatsApp's bounds. Rejects when the number is not connected. Resolves with
   * each message's id at the provider, in order: its delivery statuses come back under that id (`onStatus`).
   */
  send(reply: ChatReply): Promise<SentMessage[]>;
  /**
   * Sends a filled message template to `to` from the linked number, as the phone shows it (the simulator). Absent:
   * the server sends it as text through `send` (a linked device); Cloud API numbers send Meta's template message
   * (src/integrations/whatsapp/cloud-templates.ts).
   */
  sendTemplate?(linkId: string, to: string, template: RenderedTemplate): Promise<SentMessage[]>;
  /** Closes every socket (on shutdown); linked numbers stay linked and are resumed on the next start. */
  close(): Promise<void>;
}
