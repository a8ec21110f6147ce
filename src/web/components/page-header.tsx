import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  /** What the screen is for, in a sentence or two. */
  description: ReactNode;
  /** The screen's main button or link (New App, Buy an Extension), at the right; below on a phone. */
  action?: ReactNode;
}

/** A console screen's heading: its title, what it is for, and its main button or link. */
export function PageHeader({ title, description, action }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-end" gap="md">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {title}
        </Title>
        <Text c="dimmed" mt={6} maw={640}>
          {description}
        </Text>
      </div>
      {action}
    </Group>
  );
}
