import { Card, SimpleGrid, Skeleton } from '@mantine/core';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { useState } from 'react';
import type { App } from '../../../shared/api/apps.schema';
import { AppCloneDialog } from '../apps/app-clone-dialog';
import { APP_LIST_PATH } from '../apps/apps.api';
import { TemplateCard } from './template-card';
import { useFeaturedTemplates } from './use-featured-templates';

/** The redirect after cloning from the template page. */
export const TEMPLATE_CLONE_REDIRECT_MS = 1500;

/** The featured templates as cards, with the clone modal (name and description prefilled). */
export function TemplateCardGrid({ returnUrl }: { returnUrl: string }) {
  const { data: templates, error, isPending, refetch } = useFeaturedTemplates();
  const [cloneSource, setCloneSource] = useState<App | null>(null);

  return (
    <>
      {error && <LoadErrorAlert title="Templates not loaded" message={error.message} onRetry={() => void refetch()} />}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="template-grid">
        {isPending &&
          Array.from({ length: 6 }, (_, i) => (
            <Card key={i} withBorder radius="lg" padding="lg" aria-busy="true">
              <Skeleton height={22} width="60%" mb="md" />
              <Skeleton height={12} mb={8} />
              <Skeleton height={12} width="80%" mb="lg" />
              <Skeleton height={32} width={180} />
            </Card>
          ))}
        {templates?.map((template) => (
          <TemplateCard key={template.appId} template={template} returnUrl={returnUrl} onClone={setCloneSource} />
        ))}
      </SimpleGrid>
      <AppCloneDialog
        source={cloneSource}
        onClose={() => setCloneSource(null)}
        getDefaultName={(source) => source.appName}
        redirect={{ path: APP_LIST_PATH, delayMs: TEMPLATE_CLONE_REDIRECT_MS }}
      />
    </>
  );
}
