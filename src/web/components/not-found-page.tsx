import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { getToken } from '../lib/session';
import { BrandLogo } from './brand-logo';

/** Any path without a screen. */
export function NotFoundPage() {
  return (
    <Center mih="100vh" p="xl" component="main">
      <Stack align="center" gap="md" maw={460} ta="center">
        <BrandLogo />
        <Title order={1} fz={28}>
          Page not found
        </Title>
        <Text c="gray.7">The page you asked for does not exist or has moved. Check the address, or go back to a page you know.</Text>
        <Group>
          <Button component={Link} to="/" variant="default">
            Home
          </Button>
          {getToken() && (
            <Button component={Link} to="/get-started">
              Open the console
            </Button>
          )}
        </Group>
      </Stack>
    </Center>
  );
}
