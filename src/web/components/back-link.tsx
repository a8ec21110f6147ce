import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The small dimmed link above a screen's title back to where it came from ('My USSD Apps', 'Back to List'). */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm" c="dimmed">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} /> {label}
      </Group>
    </Anchor>
  );
}
