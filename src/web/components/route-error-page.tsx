import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useRouteError } from 'react-router';
import { isChunkLoadError, isNewBuildDeployed, reloadForNewBuild } from '../lib/stale-build';
import { BrandLogo } from './brand-logo';
import { PageLoading } from './page-loading';

type Outcome = 'checking' | 'reloading' | 'chunk-failed' | 'failed';

/**
 * What the router shows when a screen fails (the root route's ErrorBoundary). A screen whose code did not load
 * reloads the page once when a new build was deployed since the page loaded (lib/stale-build.ts); otherwise it
 * says so, with Reload.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const isChunkError = isChunkLoadError(error);
  const [outcome, setOutcome] = useState<Outcome>(isChunkError ? 'checking' : 'failed');

  useEffect(() => {
    if (!isChunkError) return;
    let isCurrent = true;
    void isNewBuildDeployed().then((isNew) => {
      if (isCurrent) setOutcome(isNew && reloadForNewBuild() ? 'reloading' : 'chunk-failed');
    });
    return () => {
      isCurrent = false;
    };
  }, [isChunkError]);

  if (outcome === 'checking' || outcome === 'reloading') return <PageLoading />;
  const isChunkFailure = outcome === 'chunk-failed';
  return (
    <Center mih="100vh" p="xl" component="main">
      <Stack align="center" gap="md" maw={460} ta="center" role="alert">
        <BrandLogo />
        <Title order={1} fz={28}>
          {isChunkFailure ? 'This page did not load' : 'Something went wrong'}
        </Title>
        <Text c="gray.7">
          {isChunkFailure
            ? 'Part of Dialflow could not be downloaded. Check your connection, then reload the page.'
            : 'This page stopped working. Reload it; if it happens again, go back to a page you know.'}
        </Text>
        <Group>
          <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
            Reload
          </Button>
          <Button component={Link} to="/" variant="default" reloadDocument>
            Home
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
