import { Stack, Text } from '@mantine/core';
import { PageHeader } from '../../components/page-header';
import { TemplateCardGrid } from './template-card-grid';
import { TEMPLATES_PATH } from '../../lib/paths';

/** 'Templates - Things you can build' (/app-templates); `?clone={appId}` opens that template's clone dialog. */
export function TemplateListPage() {
  return (
    <Stack gap="xl">
      <PageHeader
        title={
          <>
            Templates{' '}
            <Text span inherit c="dimmed" fw={500}>
              - Things you can build
            </Text>
          </>
        }
        description="Working apps to start from. Try one in the emulator, then clone it into your account and make it yours."
      />
      <TemplateCardGrid returnUrl={TEMPLATES_PATH} />
    </Stack>
  );
}
