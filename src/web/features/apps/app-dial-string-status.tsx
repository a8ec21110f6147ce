import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { formatDay, WHOLE_BADGE_STYLES } from '../../lib/format';

/**
 * Under App Settings' shortcode: whether a purchase of the account reserves the app's dial string
 * (docs/shortcodes.md, "An app's dial string"). Typing a dial string reserves nothing; only a bought or provisioned
 * extension does, and only a connected one sends its sessions here.
 */
export function AppDialStringStatus({ app }: { app: Pick<App, 'shortCode' | 'dialStringHold'> }) {
  if (!app.shortCode) return null;
  const hold = app.dialStringHold ?? null;
  if (!hold)
    return (
      <Stack gap={4} align="flex-start" data-testid="dial-string-status">
        <Badge color="gray" variant="dot" styles={WHOLE_BADGE_STYLES}>
          Not reserved
        </Badge>
        <Text size="xs" c="gray.7">
          No shortcode of yours holds {app.shortCode}: callers reach this app when your own provider forwards it to the Test or Production
          Url. To reserve a code,{' '}
          <Anchor component={Link} to="/buy-shortcode" size="xs">
            buy an extension
          </Anchor>
          .
        </Text>
      </Stack>
    );
  const until = hold.status === 'active' ? `until ${formatDay(hold.expiryDate)}` : 'while its payment is made';
  return (
    <Stack gap={4} align="flex-start" data-testid="dial-string-status">
      <Badge color="teal" variant="dot" styles={WHOLE_BADGE_STYLES}>
        Reserved
      </Badge>
      <Text size="xs" c="gray.7">
        Your shortcode on {hold.provider}, {until}.{' '}
        {hold.connectedHere ? (
          'Its sessions come to this app.'
        ) : (
          <>
            Its sessions do not come to this app yet:{' '}
            <Anchor component={Link} to={`/connect-shortcode/${hold.uuid}`} size="xs">
              connect it
            </Anchor>
            .
          </>
        )}
      </Text>
    </Stack>
  );
}
