import { Stack, Text, Title } from '@mantine/core';
import { TemplateCardGrid } from './template-card-grid';

export const TEMPLATES_PATH = '/app-templates';

/** 'Templates - Things you can build' (/app-templates). */
export function TemplateListPage() {
  return (
    <Stack gap="xl">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          Templates{' '}
          <Text span inherit c="dimmed" fw={500}>
            - Things you can build
          </Text>
        </Title>
        <Text c="dimmed" mt={6} maw={640}>
          Working apps to start from. Try one in the emulator, then clone it into your account and make it yours.
        </Text>
      </div>
      <TemplateCardGrid returnUrl={TEMPLATES_PATH} />
    </Stack>
  );
}
