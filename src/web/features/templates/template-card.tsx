import { Button, Card, Code, Group, Text, Title } from '@mantine/core';
import { IconCopy, IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { CountryFlag } from '../../components/country-flag';
import { getCountryLabel, getFlagCode } from '../apps/app-countries.data';
import { templateEmulatorPath } from '../../lib/paths';

/** The template's flag, with the country's name for people and screen readers. */
export function TemplateFlag({ template }: { template: App }) {
  return <CountryFlag code={getFlagCode(template)} name={getCountryLabel(template.country)} />;
}

interface TemplateCardProps {
  template: App;
  /** Where the emulator's back button returns to. */
  returnUrl: string;
  /** Absent for a user who builds no apps: the card has Test Run only. */
  onClone?: (template: App) => void;
}

/** One template: flag, name, description, its shortcode, Test Run and Clone (for app builders). */
export function TemplateCard({ template, returnUrl, onClone }: TemplateCardProps) {
  const emulator = templateEmulatorPath(template.appId, returnUrl);
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="article"
      aria-label={template.appName}
      data-template={template.appName}
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      <Group gap="sm" wrap="nowrap" mb="sm">
        <TemplateFlag template={template} />
        <Title order={3} fz="lg" lh={1.25} lineClamp={2} title={template.appName} style={{ minWidth: 0, overflowWrap: 'break-word' }}>
          {template.appName}
        </Title>
      </Group>
      <Text size="sm" c="gray.7" lh={1.55} style={{ flex: 1 }}>
        {template.description}
      </Text>
      <Group gap={6} mt="md">
        <Text size="xs" c="dimmed">
          Dial
        </Text>
        <Code fz="xs" style={{ overflowWrap: 'anywhere' }}>
          {template.shortCode}
        </Code>
      </Group>
      <Group gap="sm" mt="md">
        <Button
          component={Link}
          to={emulator}
          size="sm"
          leftSection={<IconPlayerPlay size={16} />}
          aria-label={`Test Run ${template.appName}`}
        >
          Test Run
        </Button>
        {onClone && (
          <Button
            variant="default"
            size="sm"
            leftSection={<IconCopy size={16} />}
            onClick={() => onClone(template)}
            aria-label={`Clone ${template.appName}`}
          >
            Clone
          </Button>
        )}
      </Group>
    </Card>
  );
}
