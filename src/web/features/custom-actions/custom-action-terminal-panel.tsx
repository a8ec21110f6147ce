import { ActionIcon, Box, Collapse, Group, Paper, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconChevronDown, IconClipboardCopy, IconEraser, IconTerminal2 } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { CUSTOM_ACTION_FALLBACKS } from './custom-actions.api';
import { formatTerminalText, type TerminalLine, type TerminalLineKind } from './custom-action-test-run';

const KIND_COLORS: Record<TerminalLineKind, string> = {
  info: 'var(--mantine-color-blue-3)',
  debug: 'var(--mantine-color-gray-5)',
  error: 'var(--mantine-color-red-4)',
  output: 'var(--mantine-color-green-4)',
};

interface CustomActionTerminalPanelProps {
  lines: TerminalLine[];
  isRunning: boolean;
  isExpanded: boolean;
  onToggle: () => void;
  onClear: () => void;
}

/** The collapsible Terminal: each test run's log lines and output, timestamped and coloured by kind. */
export function CustomActionTerminalPanel({ lines, isRunning, isExpanded, onToggle, onClear }: CustomActionTerminalPanelProps) {
  const bodyRef = useRef<HTMLDivElement>(null);

  // New lines arrive at the bottom; keep them in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers (the panel's content or size changed); it reads the DOM
  useEffect(() => {
    const body = bodyRef.current;
    if (body) body.scrollTop = body.scrollHeight;
  }, [lines, isRunning, isExpanded]);

  async function copyLines() {
    try {
      await navigator.clipboard.writeText(formatTerminalText(lines));
      showToast({
        color: 'teal',
        title: 'Copied',
        message: lines.length ? 'Terminal output copied to clipboard' : 'The terminal is empty',
      });
    } catch {
      showToast({ color: 'red', title: 'Copy', message: CUSTOM_ACTION_FALLBACKS.copy });
    }
  }

  return (
    <Paper
      radius="lg"
      bg="dark.8"
      style={{ overflow: 'hidden', border: '1px solid var(--mantine-color-dark-4)' }}
      component="section"
      aria-label="Terminal"
      data-testid="custom-action-terminal"
    >
      <Group justify="space-between" px="md" py={8} gap="xs" wrap="nowrap" bg="dark.7">
        <UnstyledButton
          onClick={onToggle}
          aria-expanded={isExpanded}
          aria-label={isExpanded ? 'Collapse terminal' : 'Expand terminal'}
          c="gray.3"
          style={{ flexGrow: 1 }}
        >
          <Group gap={8} wrap="nowrap">
            <IconChevronDown
              size={16}
              style={{ transform: isExpanded ? undefined : 'rotate(-90deg)', transition: 'transform 150ms ease' }}
            />
            <IconTerminal2 size={16} />
            <Text size="sm" fw={600}>
              Terminal
            </Text>
            {lines.length > 0 && (
              <Text size="xs" c="dimmed">
                {lines.length} {lines.length === 1 ? 'line' : 'lines'}
              </Text>
            )}
          </Group>
        </UnstyledButton>
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Clear" withArrow>
            <ActionIcon variant="subtle" color="gray" onClick={onClear} aria-label="Clear terminal">
              <IconEraser size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Copy" withArrow>
            <ActionIcon variant="subtle" color="gray" onClick={() => void copyLines()} aria-label="Copy terminal">
              <IconClipboardCopy size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Collapse expanded={isExpanded} keepMountedMode="display-none">
        <Box
          ref={bodyRef}
          role="log"
          aria-label="Terminal output"
          aria-live="polite"
          px="md"
          py="sm"
          mah={360}
          mih={140}
          style={{ overflowY: 'auto', fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13, lineHeight: 1.55 }}
        >
          {lines.map((line) => (
            <div key={line.id} data-kind={line.kind} style={{ display: 'flex', gap: 10, alignItems: 'baseline' }}>
              <span style={{ color: 'var(--mantine-color-dark-2)', flexShrink: 0 }}>[{line.time}]</span>
              <span style={{ color: KIND_COLORS[line.kind], flexShrink: 0, width: '6ch', fontWeight: 600 }}>{line.kind.toUpperCase()}</span>
              <span
                style={{
                  color: line.kind === 'output' ? 'var(--mantine-color-gray-1)' : KIND_COLORS[line.kind],
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  minWidth: 0,
                }}
              >
                {line.text}
              </span>
            </div>
          ))}
          <div data-testid="terminal-prompt" style={{ color: 'var(--mantine-color-green-5)' }}>
            $ {isRunning ? 'Running…' : 'Ready'}
            {!isRunning && (
              <span
                style={{
                  display: 'inline-block',
                  width: '0.6em',
                  height: '1.1em',
                  marginLeft: 4,
                  verticalAlign: 'text-bottom',
                  background: 'var(--mantine-color-gray-5)',
                }}
              />
            )}
          </div>
        </Box>
      </Collapse>
    </Paper>
  );
}
