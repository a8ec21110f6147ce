import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { TemplateCardGrid } from './template-card-grid';
import { useFeaturedTemplates } from './use-featured-templates';
import { TEMPLATES_PATH } from '../../lib/paths';

/** The logged-in home's featured templates (the signed-in home, /get-started). Hidden when none can be loaded. */
export function TemplateFeaturedSection() {
  const { data: templates, error } = useFeaturedTemplates();
  if (error || templates?.length === 0) return null;

  return (
    <Stack gap="md" component="section" aria-labelledby="featured-templates-heading">
      <Group justify="space-between" gap="xs" align="flex-end">
        <div>
          <Title order={2} fz="lg" id="featured-templates-heading">
            Featured templates
          </Title>
          <Text size="sm" c="dimmed">
            Start from a working app: try it, then clone it into your account.
          </Text>
        </div>
        <Anchor component={Link} to={TEMPLATES_PATH} size="sm" fw={600}>
          All templates
        </Anchor>
      </Group>
      <TemplateCardGrid returnUrl="/get-started" />
    </Stack>
  );
}
