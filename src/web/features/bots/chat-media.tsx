import { IconExternalLink, IconFileText, IconMapPin, IconPhotoOff, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import type { MediaRef } from '../../../shared/media';
import { toMapUrl, type WhatsAppMessage } from '../../../shared/whatsapp';
import { toCoordinates, toFileDetails, toFileTitle } from '../../components/media-preview';
import classes from './chat.module.css';

type RichMessage = Extract<WhatsAppMessage, { type: 'media' | 'location' | 'contact' | 'link' | 'locationRequest' }>;

/** True for the messages {@link ChatRichContent} draws (everything but text, lists and buttons). */
export const isRichMessage = (message: WhatsAppMessage): message is RichMessage =>
  message.type !== 'text' && message.type !== 'list' && message.type !== 'buttons';

interface ChatRichContentProps {
  message: RichMessage;
  /** A location request's Share location button; absent where the page cannot share one. */
  onShareLocation?: () => void;
}

/**
 * A message that is not text as WhatsApp draws it in a bubble: a photo as a thumbnail, a document as a file card,
 * audio and video with the browser's own players, a location as a pin, a contact card, a link button and a
 * location request. Files open their signed link in a new tab.
 */
export function ChatRichContent({ message }: Pick<ChatRichContentProps, 'message'>) {
  switch (message.type) {
    case 'media':
      return <ChatFile media={message.media} />;
    case 'location': {
      const { location } = message;
      return (
        <div className={classes.card} data-testid="chat-location">
          <IconMapPin size={28} aria-hidden="true" className={classes.pin} />
          <div className={classes.cardText}>
            <span className={classes.cardTitle}>{location.name || 'Location'}</span>
            {location.address && <span>{location.address}</span>}
            <span className={classes.cardDetails}>{toCoordinates(location)}</span>
            <a className={classes.cardLink} href={toMapUrl(location)} target="_blank" rel="noopener">
              Open map
            </a>
          </div>
        </div>
      );
    }
    case 'contact':
      return (
        <div className={classes.card} data-testid="chat-contact">
          <IconUser size={28} aria-hidden="true" className={classes.cardIcon} />
          <div className={classes.cardText}>
            <span className={classes.cardTitle}>{message.contact.name}</span>
            {message.contact.phones.map((phone) => (
              <a key={phone} className={classes.cardLink} href={`tel:${phone}`}>
                {phone}
              </a>
            ))}
          </div>
        </div>
      );
    case 'link':
    case 'locationRequest':
      return <p className={classes.bubbleText}>{message.body}</p>;
  }
}

/** The button under a link or location request's bubble, after its time, as a list's button is. */
export function ChatRichAction({ message, onShareLocation }: ChatRichContentProps) {
  if (message.type === 'link')
    return (
      <a className={classes.listButton} href={message.url} target="_blank" rel="noopener" data-testid="chat-link-button">
        <IconExternalLink size={16} aria-hidden="true" />
        {message.button}
      </a>
    );
  if (message.type === 'locationRequest')
    return (
      <button type="button" className={classes.listButton} disabled={!onShareLocation} onClick={onShareLocation}>
        <IconMapPin size={16} aria-hidden="true" />
        Share location
      </button>
    );
  return null;
}

/** A file in a bubble, with its caption under it. Links expire: a photo that no longer loads says so. */
function ChatFile({ media }: { media: MediaRef }) {
  const [isBroken, setBroken] = useState(false);
  const title = toFileTitle(media);
  const caption = media.caption ? <p className={classes.bubbleText}>{media.caption}</p> : null;
  if (!media.url || isBroken)
    return (
      <>
        <div className={classes.card} data-testid="chat-file-missing">
          <IconPhotoOff size={24} aria-hidden="true" className={classes.cardIcon} />
          <span className={classes.cardDetails}>
            {title}: {media.url ? 'the link has expired or the file could not be loaded' : 'no longer stored'}
          </span>
        </div>
        {caption}
      </>
    );
  const body =
    media.kind === 'image' ? (
      <a href={media.url} target="_blank" rel="noopener" aria-label={`Open the photo ${title}`} className={classes.thumbLink}>
        <img
          src={media.url}
          alt={media.caption || title}
          className={classes.thumb}
          onError={() => setBroken(true)}
          data-testid="chat-image"
        />
      </a>
    ) : media.kind === 'audio' ? (
      // biome-ignore lint/a11y/useMediaCaption: a voice note or audio file a customer or bot sent has no captions to offer
      <audio controls preload="metadata" src={media.url} aria-label={`Audio: ${title}`} className={classes.player} />
    ) : media.kind === 'video' ? (
      // biome-ignore lint/a11y/useMediaCaption: a video sent in a chat has no captions to offer
      <video controls preload="metadata" src={media.url} aria-label={`Video: ${title}`} className={classes.player} />
    ) : (
      <a className={`${classes.card} ${classes.fileCard}`} href={media.url} target="_blank" rel="noopener" data-testid="chat-document">
        <IconFileText size={28} aria-hidden="true" className={classes.cardIcon} />
        <span className={classes.cardText}>
          <span className={classes.cardTitle}>{title}</span>
          <span className={classes.cardDetails}>{toFileDetails(media)}</span>
        </span>
      </a>
    );
  return (
    <>
      {body}
      {caption}
    </>
  );
}
