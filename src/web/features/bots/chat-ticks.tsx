import { Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconChecks } from '@tabler/icons-react';
import { describeStatus, type EntryStatus } from './chat-entries';
import classes from './chat.module.css';

/**
 * A bot message's delivery status, as WhatsApp draws it on a sent message: one grey tick sent, two grey delivered,
 * two blue read, a red mark failed (its words on hover and on focus). A screen reader reads the status itself.
 */
export function ChatTicks({ status }: { status: EntryStatus }) {
  const label = describeStatus(status);
  const common = { role: 'img', 'aria-label': label, 'data-testid': 'chat-ticks', 'data-status': status.status } as const;
  if (status.status === 'failed')
    return (
      <Tooltip label={label} withArrow multiline maw={260} events={{ hover: true, focus: true, touch: true }}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the failure's words show on focus for keyboard users */}
        <span {...common} className={`${classes.ticks} ${classes.ticksFailed}`} tabIndex={0}>
          <IconAlertCircle size={14} aria-hidden="true" />
        </span>
      </Tooltip>
    );
  const Icon = status.status === 'sent' ? IconCheck : IconChecks;
  return (
    <span {...common} title={label} className={`${classes.ticks} ${status.status === 'read' ? classes.ticksRead : ''}`}>
      <Icon size={14} aria-hidden="true" />
    </span>
  );
}
