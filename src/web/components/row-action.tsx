import { ActionIcon, type MantineColor, Tooltip } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { Link } from 'react-router';

type RowActionProps = {
  /** The tooltip: what the button does ('Delete'). */
  label: string;
  /** Its accessible name, which names the row: 'Delete Kente Crafts'. */
  ariaLabel: string;
  icon: Icon;
  color?: MantineColor;
} & ({ to: string; onClick?: never } | { onClick: () => void; to?: never });

/** An icon button in a table row or a card, with its tooltip: a link when it has `to`, else a button. */
export function RowAction({ label, ariaLabel, icon: IconShown, color, to, onClick }: RowActionProps) {
  return (
    <Tooltip label={label} withArrow>
      {to === undefined ? (
        <ActionIcon variant="subtle" color={color} size="lg" onClick={onClick} aria-label={ariaLabel}>
          <IconShown size={18} />
        </ActionIcon>
      ) : (
        <ActionIcon component={Link} to={to} variant="subtle" color={color} size="lg" aria-label={ariaLabel}>
          <IconShown size={18} />
        </ActionIcon>
      )}
    </Tooltip>
  );
}
