import { Card, SimpleGrid, Skeleton } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { AppBuilderNotice } from '../apps/app-builder-notice';
import { AppCloneDialog, type CloneRedirect } from '../apps/app-clone-dialog';
import { TemplateCard } from './template-card';
import { takeCloneIntent } from './template-clone-request';
import { useFeaturedTemplates } from './use-featured-templates';
import { designerPath, CLONE_PARAM } from '../../lib/paths';
import { useCanBuildApps } from '../../lib/use-current-user';

/** The redirect after cloning from the template page. */
export const TEMPLATE_CLONE_REDIRECT_MS = 1500;

/** A template's copy is there to be made one's own: the next screen is its designer. */
const CLONE_REDIRECT: CloneRedirect = {
  path: (clone) => designerPath(clone.appId),
  to: 'its designer',
  delayMs: TEMPLATE_CLONE_REDIRECT_MS,
};

/**
 * The template `?clone={appId}` asks for, once the templates are in: its clone dialog opens (and clones at once
 * when the visitor pressed Clone before signing in, see takeCloneIntent); the parameter is then dropped so a
 * reload or Back does not open it again.
 */
function useRequestedClone(templates: App[] | undefined, canClone: boolean) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedId = searchParams.get(CLONE_PARAM);
  const [request, setRequest] = useState<{ template: App; isAutoSubmitted: boolean } | null>(null);

  useEffect(() => {
    if (!requestedId || !templates) return;
    setSearchParams(
      (params) => {
        params.delete(CLONE_PARAM);
        return params;
      },
      { replace: true },
    );
    const isIntended = takeCloneIntent(requestedId);
    if (!canClone) return;
    const template = templates.find((t) => t.appId === requestedId);
    if (template) setRequest({ template, isAutoSubmitted: isIntended });
    else
      showToast({
        color: 'orange',
        title: 'Template not found',
        message: 'The template you chose is no longer offered. Pick another one below.',
      });
  }, [requestedId, templates, canClone, setSearchParams]);

  return [request, setRequest] as const;
}

/**
 * The featured templates as cards, with the clone modal (name and description prefilled). A user who builds no
 * apps (a merchant user who is not a Developer) gets Test Run only, and the reason above the cards.
 */
export function TemplateCardGrid({ returnUrl }: { returnUrl: string }) {
  const { data: templates, error, isPending, refetch } = useFeaturedTemplates();
  const canClone = useCanBuildApps();
  const [request, setRequest] = useRequestedClone(templates, canClone);
  const [cloneSource, setCloneSource] = useState<App | null>(null);
  const source = cloneSource ?? request?.template ?? null;

  return (
    <>
      {error && <LoadErrorAlert title="Templates not loaded" message={error.message} onRetry={() => void refetch()} />}
      {!canClone && <AppBuilderNotice>Try any template in the emulator.</AppBuilderNotice>}
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
          <TemplateCard key={template.appId} template={template} returnUrl={returnUrl} onClone={canClone ? setCloneSource : undefined} />
        ))}
      </SimpleGrid>
      <AppCloneDialog
        source={source}
        onClose={() => {
          setCloneSource(null);
          setRequest(null);
        }}
        getDefaultName={(s) => s.appName}
        redirect={CLONE_REDIRECT}
        isAutoSubmitted={!cloneSource && !!request?.isAutoSubmitted}
      />
    </>
  );
}
