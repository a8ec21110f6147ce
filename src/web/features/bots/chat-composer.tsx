import { Menu } from '@mantine/core';
import { IconFileText, IconHeadphones, IconMapPin, IconMovie, IconPaperclip, IconPhoto, IconSend2 } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { MEDIA_KINDS, MEDIA_TYPES, type MediaKind } from '../../../shared/media';
import classes from './chat.module.css';

/** The attach menu's files: what each is called and drawn with. */
const ATTACH_KINDS: Record<MediaKind, { label: string; icon: typeof IconPhoto }> = {
  image: { label: 'Photo', icon: IconPhoto },
  document: { label: 'Document', icon: IconFileText },
  audio: { label: 'Audio', icon: IconHeadphones },
  video: { label: 'Video', icon: IconMovie },
};

interface ChatComposerProps {
  isWaiting: boolean;
  onSend: (text: string) => void;
  /** A file picked from the attach menu; absent: the page sends text only (no paperclip). */
  onAttach?: (kind: MediaKind, file: File) => void;
  /** The attach menu's Location: opens the page's location form. */
  onShareLocation?: () => void;
}

/**
 * The text box and Send, as at the bottom of a WhatsApp chat; Enter sends. Where the page sends files, a paperclip
 * opens the attach menu: a photo, a document, audio or a video (the file picker offers the types WhatsApp takes
 * of that kind, MEDIA_TYPES, the list the server checks the bytes against), or a location.
 */
export function ChatComposer({ isWaiting, onSend, onAttach, onShareLocation }: ChatComposerProps) {
  const [text, setText] = useState('');
  const pickers = useRef<Partial<Record<MediaKind, HTMLInputElement | null>>>({});
  const isEmpty = text.trim() === '';
  return (
    <form
      className={classes.composer}
      aria-label="Write a message"
      onSubmit={(event) => {
        event.preventDefault();
        if (isEmpty || isWaiting) return;
        onSend(text.trim());
        setText('');
      }}
    >
      {onAttach && (
        <>
          <Menu position="top-start">
            <Menu.Target>
              <button type="button" className={classes.attachButton} aria-label="Attach" disabled={isWaiting}>
                <IconPaperclip size={22} aria-hidden="true" />
              </button>
            </Menu.Target>
            <Menu.Dropdown>
              {MEDIA_KINDS.map((kind) => {
                const { label, icon: Icon } = ATTACH_KINDS[kind];
                return (
                  <Menu.Item key={kind} leftSection={<Icon size={16} aria-hidden="true" />} onClick={() => pickers.current[kind]?.click()}>
                    {label}
                  </Menu.Item>
                );
              })}
              {onShareLocation && (
                <Menu.Item leftSection={<IconMapPin size={16} aria-hidden="true" />} onClick={onShareLocation}>
                  Location
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
          {MEDIA_KINDS.map((kind) => (
            <input
              key={kind}
              ref={(input) => {
                pickers.current[kind] = input;
              }}
              type="file"
              hidden
              data-kind={kind}
              accept={MEDIA_TYPES[kind].mimeTypes.join(',')}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                // The same file picked again is a new message.
                event.currentTarget.value = '';
                if (file) onAttach(kind, file);
              }}
            />
          ))}
        </>
      )}
      <input
        className={classes.composerInput}
        aria-label="Message"
        placeholder="Message"
        autoComplete="off"
        maxLength={4096}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <button type="submit" className={classes.sendButton} aria-label="Send" disabled={isEmpty || isWaiting}>
        <IconSend2 size={20} aria-hidden="true" />
      </button>
    </form>
  );
}
