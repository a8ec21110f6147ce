import { Box, ScrollArea, Text } from '@mantine/core';
import type { LogEntry } from './logs.api';
import { formatTime } from '../../lib/table-export';

const LEVEL_COLOURS: Record<string, string> = { system: '#8ab4f8', debug: '#c3c3c3', info: '#7ee787', error: '#ff7b72' };

/** Pretty-printed JSON of a line's data, or nothing when it carries none. */
export function formatLogData(data: unknown): string {
  if (data === null || data === undefined || data === '') return '';
  if (typeof data === 'string') return data;
  return JSON.stringify(data, null, 2);
}

/** Log View: a terminal-style list in the order the lines happened: time, [level], message, and the pretty-printed details under each line. */
export function ActionLogTerminal({ logs }: { logs: LogEntry[] }) {
  return (
    <Box
      bg="#0d1117"
      c="#e6edf3"
      p="md"
      style={{ borderRadius: 'var(--mantine-radius-lg)', fontFamily: 'var(--mantine-font-family-monospace)' }}
      data-testid="log-terminal"
    >
      <ScrollArea.Autosize mah={560} type="auto">
        {logs.length === 0 ? (
          <Text ff="monospace" size="sm" c="#8b949e">
            $ no log lines
          </Text>
        ) : (
          logs.map((log) => {
            const details = formatLogData(log.data);
            return (
              <Box key={log.id} py={4} style={{ borderBottom: '1px solid #21262d' }} data-testid="log-line" data-level={log.logLevel}>
                <Text ff="monospace" size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  <span style={{ color: '#8b949e' }}>{formatTime(log.time)}</span>{' '}
                  <span style={{ color: LEVEL_COLOURS[log.logLevel] ?? '#e6edf3' }}>[{log.logLevel}]</span> {log.message}{' '}
                  <span style={{ color: '#6e7681' }}>{log.pluginActionMenu}</span>
                </Text>
                {details && (
                  <Text
                    component="pre"
                    ff="monospace"
                    size="xs"
                    c="#a5d6ff"
                    m={0}
                    ml="md"
                    style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                  >
                    {details}
                  </Text>
                )}
              </Box>
            );
          })
        )}
      </ScrollArea.Autosize>
    </Box>
  );
}
