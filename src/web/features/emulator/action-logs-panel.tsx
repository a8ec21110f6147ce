import { IconInfoCircle, IconTerminal2 } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { LogLevel } from './emulator.api';
import type { LogLine, LogStreamStatus } from './use-action-logs';
import classes from './emulator.module.css';

type LogFilter = 'all' | LogLevel;
const FILTERS: LogFilter[] = ['all', 'system', 'info', 'error', 'debug'];

export const LOGS_UNAVAILABLE_NOTE = 'Logs appear here once logging is available';

function formatTime(timestamp: string | number): string {
  if (timestamp === '') return '';
  const date = new Date(typeof timestamp === 'string' && /^\d+$/.test(timestamp) ? Number(timestamp) : timestamp);
  return Number.isNaN(date.getTime()) ? String(timestamp) : date.toLocaleTimeString([], { hour12: false });
}

const STATUS_LABEL: Record<LogStreamStatus, string> = {
  waiting: 'Connecting',
  live: 'Live',
  unavailable: 'Not available',
  'signed-out': 'Log in to see logs',
};

interface ActionLogsPanelProps {
  lines: LogLine[];
  status: LogStreamStatus;
  onClear: () => void;
  /** What an empty log says to do (a bot's chat simulator: send a message). */
  emptyText?: string;
}

/**
 * The action logs panel: filter buttons ALL, SYSTEM, INFO, ERROR, DEBUG and CLEAR over
 * numbered lines coloured by level (system white, info light blue, error red, debug orange).
 */
export function ActionLogsPanel({
  lines,
  status,
  onClear,
  emptyText = 'No logs yet. Dial the app to see its actions run.',
}: ActionLogsPanelProps) {
  const [filter, setFilter] = useState<LogFilter>('all');
  const bodyRef = useRef<HTMLDivElement>(null);
  const shown = filter === 'all' ? lines : lines.filter((line) => line.logLevel === filter);

  // New lines scroll into view unless the reader has scrolled up to read older ones.
  const isPinned = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when lines are added; it reads the DOM, not the lines
  useEffect(() => {
    const body = bodyRef.current;
    if (body && isPinned.current) body.scrollTop = body.scrollHeight;
  }, [shown.length]);

  const dotClass = status === 'live' ? classes.streamDotLive : status === 'waiting' ? '' : classes.streamDotUnavailable;

  return (
    <section className={classes.terminal} aria-labelledby="action-logs-title" data-testid="action-logs">
      <div className={classes.terminalHeader}>
        <h2 className={classes.terminalTitle} id="action-logs-title">
          <IconTerminal2 size={18} aria-hidden="true" />
          Action logs
          <span
            className={`${classes.streamDot} ${dotClass}`}
            title={STATUS_LABEL[status]}
            aria-label={`Stream: ${STATUS_LABEL[status]}`}
            role="img"
          />
        </h2>
        <div className={classes.terminalTools}>
          <div className={classes.filters} role="toolbar" aria-label="Filter logs by level">
            {FILTERS.map((level) => (
              <button
                key={level}
                type="button"
                className={classes.filterButton}
                aria-pressed={filter === level}
                onClick={() => setFilter(level)}
              >
                {level.toUpperCase()}
              </button>
            ))}
          </div>
          <span className={classes.toolsDivider} aria-hidden="true" />
          <button type="button" className={`${classes.filterButton} ${classes.clearButton}`} onClick={onClear}>
            CLEAR
          </button>
        </div>
      </div>
      <div
        ref={bodyRef}
        className={classes.logBody}
        role="log"
        aria-label="Log lines"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboard users can scroll it
        tabIndex={0}
        onScroll={(event) => {
          const body = event.currentTarget;
          isPinned.current = body.scrollHeight - body.scrollTop - body.clientHeight < 24;
        }}
      >
        {shown.length === 0 ? (
          <div className={classes.terminalEmpty}>
            <span>{lines.length === 0 ? emptyText : `No ${filter.toUpperCase()} lines.`}</span>
            {status === 'signed-out' && (
              <span className={classes.terminalNote} data-testid="logs-signed-out">
                <IconInfoCircle size={14} aria-hidden="true" />
                <span>
                  <Link to="/login" className={classes.terminalLink}>
                    Log in
                  </Link>{' '}
                  to see the logs of your test runs
                </span>
              </span>
            )}
            {status === 'unavailable' && (
              <span className={classes.terminalNote} data-testid="logs-unavailable">
                <IconInfoCircle size={14} aria-hidden="true" />
                {LOGS_UNAVAILABLE_NOTE}
              </span>
            )}
          </div>
        ) : (
          shown.map((line) => (
            <div key={line.number} className={`${classes.logLine} ${classes[`level_${line.logLevel}`]}`} data-level={line.logLevel}>
              <span className={classes.logNumber}>{line.number}</span>
              <span className={classes.logTime}>{formatTime(line.timestamp)}</span>
              <span>[{line.logLevel}]</span>
              <span className={classes.logMessage}>{line.message}</span>
            </div>
          ))
        )}
      </div>
    </section>
  );
}
