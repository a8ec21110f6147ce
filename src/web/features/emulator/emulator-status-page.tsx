import { Button, Center, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceMobileOff, IconPlugConnectedX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import classes from './emulator.module.css';

type EmulatorStatus = (
  | { kind: 'loading' }
  | { kind: 'not-found'; appId: string; isTemplate: boolean; homeUrl: string }
  | { kind: 'failed'; detail: string; homeUrl: string; onRetry: () => void }
) & {
  /** A WhatsApp bot's chat simulator (the same states, in its words). */
  isBot?: boolean;
};

/** What the emulator (or a bot's chat simulator) shows instead of the phone while the app loads, or when it cannot be opened. */
export function EmulatorStatusPage(status: EmulatorStatus) {
  const tool = status.isBot ? 'chat simulator' : 'emulator';
  const noun = status.isBot ? 'bot' : 'app';
  return (
    <main className={classes.page}>
      <Center mih="100vh" p="xl">
        {status.kind === 'loading' ? (
          <Stack align="center" gap="md" role="status">
            <Loader color="teal" />
            <Text c="gray.7">Loading the {tool}…</Text>
          </Stack>
        ) : (
          <Stack align="center" gap="md" maw={480} ta="center" data-testid={`emulator-${status.kind}`}>
            <BrandLogo />
            <ThemeIcon size={56} radius="xl" variant="light" color={status.kind === 'not-found' ? 'gray' : 'orange'} mt="md">
              {status.kind === 'not-found' ? <IconDeviceMobileOff size={30} /> : <IconPlugConnectedX size={30} />}
            </ThemeIcon>
            <Title order={1} fz={26}>
              {status.kind === 'not-found'
                ? status.isTemplate
                  ? 'Template not found'
                  : status.isBot
                    ? 'Bot not found'
                    : 'App not found'
                : `The ${tool} could not load`}
            </Title>
            <Text c="gray.7">
              {status.kind === 'not-found'
                ? status.isTemplate
                  ? `There is no featured template with the id “${status.appId}”. It may have been removed.`
                  : `There is no ${noun} with the id “${status.appId}” in your account. It may have been deleted, or the link may be wrong.`
                : `We could not load the ${noun}: ${status.detail}. Check your connection and try again.`}
            </Text>
            <Group>
              {status.kind === 'failed' && <Button onClick={status.onRetry}>Try again</Button>}
              <Button component={Link} to={status.homeUrl || '/'} variant={status.kind === 'failed' ? 'default' : 'filled'}>
                {status.kind === 'not-found' && !status.isTemplate ? `Back to my ${noun}s` : 'Go back'}
              </Button>
            </Group>
          </Stack>
        )}
      </Center>
    </main>
  );
}
