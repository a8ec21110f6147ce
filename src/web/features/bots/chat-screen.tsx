import { IconRobot } from '@tabler/icons-react';
import { useState } from 'react';
import type { LocationRef, MediaKind } from '../../../shared/media';
import type { WhatsAppChoice } from '../../../shared/whatsapp';
import { EmulatorPhoneFrame } from '../emulator/emulator-phone-frame';
import { DEFAULT_NETWORK } from '../emulator/emulator-session';
import { ChatComposer } from './chat-composer';
import type { ChatEntry, EntryStatus } from './chat-entries';
import { ChatLocationDialog } from './chat-location-dialog';
import { ChatThread } from './chat-thread';
import classes from './chat.module.css';

interface ChatScreenProps {
  botName: string;
  /** Under the name in the header: who is chatting, or the bot's number. */
  subtitle: string;
  entries: ChatEntry[];
  isEnded: boolean;
  isWaiting: boolean;
  error: string | null;
  emptyText: string;
  onSend: (text: string) => void;
  onChoose: (choice: WhatsAppChoice) => void;
  /** The bot's messages' delivery statuses, where ticks are shown (the console's chat simulator). */
  statuses?: ReadonlyMap<string, EntryStatus>;
  /** What shows while waiting, when not the bot typing (a file uploading). */
  waitingText?: string | null;
  /** Sends a file the customer picked; absent: the page sends text and choices only. */
  onSendFile?: (kind: MediaKind, file: File) => void;
  /** Sends a location the customer typed (the attach menu, or a location request's Share location). */
  onSendLocation?: (location: LocationRef) => void;
}

/**
 * A WhatsApp chat with the bot on the emulator's handset: the console's chat simulator and the simulated phone
 * both draw it.
 */
export function ChatScreen({
  botName,
  subtitle,
  entries,
  isEnded,
  isWaiting,
  error,
  emptyText,
  onSend,
  onChoose,
  statuses,
  onSendFile,
  onSendLocation,
  waitingText,
}: ChatScreenProps) {
  const [isLocationOpen, setLocationOpen] = useState(false);
  const openLocation = onSendLocation && !isWaiting ? () => setLocationOpen(true) : undefined;
  return (
    <EmulatorPhoneFrame network={DEFAULT_NETWORK}>
      <div className={classes.header}>
        <span className={classes.avatar} aria-hidden="true">
          <IconRobot size={20} />
        </span>
        <div className={classes.headerText}>
          <h2 className={classes.headerName}>{botName}</h2>
          <div className={classes.headerSub}>{subtitle}</div>
        </div>
      </div>
      <div className={classes.screenBody}>
        <ChatThread
          entries={entries}
          botName={botName}
          isEnded={isEnded}
          isWaiting={isWaiting}
          error={error}
          emptyText={emptyText}
          onChoose={onChoose}
          statuses={statuses}
          onShareLocation={openLocation}
          waitingText={waitingText}
        />
        <ChatComposer isWaiting={isWaiting} onSend={onSend} onAttach={onSendFile} onShareLocation={openLocation} />
      </div>
      {onSendLocation && <ChatLocationDialog isOpen={isLocationOpen} onClose={() => setLocationOpen(false)} onShare={onSendLocation} />}
    </EmulatorPhoneFrame>
  );
}
