import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandLogo } from '../../components/brand-logo';
import classes from './emulator.module.css';

interface EmulatorTopbarProps {
  /** The small line over the title: Emulator, Chat simulator... */
  eyebrow: string;
  title: string;
  /** Shown beside the title (the app's code, Draft, WhatsApp bot). */
  badges?: ReactNode;
  /** One sentence on what the screen runs, on wide screens. */
  note: string;
}

/** The top bar of the full-screen test screens: the USSD emulator, the chat simulator and the simulated phone. */
export function EmulatorTopbar({ eyebrow, title, badges, note }: EmulatorTopbarProps) {
  const heading = (
    <Title order={1} fz={{ base: 20, sm: 24 }} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
      {title}
    </Title>
  );
  return (
    <header className={classes.topbar}>
      <BrandLogo size={30} />
      <span className={classes.topbarDivider} aria-hidden="true" />
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <Text size="xs" fw={700} c="teal.9" tt="uppercase" style={{ letterSpacing: '0.08em' }}>
          {eyebrow}
        </Text>
        {badges ? (
          <Group gap="sm" wrap="wrap">
            {heading}
            {badges}
          </Group>
        ) : (
          heading
        )}
      </Stack>
      <Text size="sm" c="gray.7" maw={380} visibleFrom="md">
        {note}
      </Text>
    </header>
  );
}
