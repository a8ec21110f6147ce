import { Anchor, Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBook2, IconDeviceMobile, IconPlus, IconRocket, IconSitemap, IconSquarePlus, type Icon } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TemplateFeaturedSection } from '../templates/template-featured-section';
import { AppImportButton } from '../apps/app-import-dialog';
import { TwoFactorRecommendation } from '../auth/two-factor-recommendation';
import { DOCS_URL } from './console-header';
import { CREATE_APP_PATH } from '../../lib/paths';
import { useCanBuildApps } from '../../lib/use-current-user';

interface Step {
  title: string;
  text: string;
  icon: Icon;
}

const STEPS: Step[] = [
  {
    title: 'Create an app',
    text: 'Give it a name and a country, then connect a shortcode: a new extension on a shared code, or a code you already own.',
    icon: IconSquarePlus,
  },
  {
    title: 'Design your menus',
    text: 'Write each screen and its options, check what callers type, and add actions: REST calls, JavaScript, SMS and mobile-money payments.',
    icon: IconSitemap,
  },
  {
    title: 'Test in the emulator',
    text: 'Dial your draft in the browser emulator and follow every step in the logs before a single customer sees it.',
    icon: IconDeviceMobile,
  },
  {
    title: 'Deploy',
    text: 'Deploy a version and point your gateway at the Production Url, or buy a shortcode extension and connect it to the app.',
    icon: IconRocket,
  },
];

/** The logged-in home: the New App button, the getting-started steps and the featured templates. */
export function GetStartedPage() {
  // A merchant user who is not a Developer builds no app: no New App or Import (the templates say why).
  const canBuildApps = useCanBuildApps();

  return (
    <Stack gap="xl">
      <TwoFactorRecommendation />
      <Group justify="space-between" align="flex-end" gap="md">
        <div>
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            Hello, Welcome to Dialflow
          </Title>
          <Text c="dimmed" mt={6} maw={620}>
            Build a USSD app, try it in the browser, then put it on a shortcode your customers can dial from any phone.
          </Text>
        </div>
        {canBuildApps && (
          <Group gap="sm">
            <AppImportButton size="md" thenGoTo="/app-list" />
            <Button component={Link} to={CREATE_APP_PATH} size="md" leftSection={<IconPlus size={18} />}>
              New App
            </Button>
          </Group>
        )}
      </Group>

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="getting-started-heading">
        <Group justify="space-between" mb="lg" gap="xs">
          <Title order={2} fz="lg" id="getting-started-heading">
            Getting started
          </Title>
          <Text size="sm" c="dimmed">
            Four steps from idea to a live shortcode
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {STEPS.map((step, index) => (
            <Card key={step.title} component="li" withBorder radius="md" padding="lg" bg="gray.0">
              <Group justify="space-between" mb="md">
                <ThemeIcon size={40} radius="md" variant="light">
                  <step.icon size={22} stroke={1.6} />
                </ThemeIcon>
                <Badge variant="outline" color="gray" radius="sm">
                  Step {index + 1}
                </Badge>
              </Group>
              <Text fw={700} mb={6}>
                {step.title}
              </Text>
              <Text size="sm" c="dimmed" lh={1.55}>
                {step.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Paper>

      <TemplateFeaturedSection />

      <Paper withBorder radius="lg" p="lg">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={40} radius="md" variant="light" color="cyan">
            <IconBook2 size={22} stroke={1.6} />
          </ThemeIcon>
          <div>
            <Text fw={700}>Integrating from your own systems?</Text>
            <Text size="sm" c="dimmed">
              Every call the console makes is in the{' '}
              <Anchor href={DOCS_URL} target="_blank" rel="noopener noreferrer">
                API reference
              </Anchor>
              , with request and response schemas.
            </Text>
          </div>
        </Group>
      </Paper>
    </Stack>
  );
}
