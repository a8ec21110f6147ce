import { useQuery } from '@tanstack/react-query';
import { deleteTemplate, findTemplates } from '../../../shared/api/whatsapp-templates.calls';
import { TEMPLATE_API_MESSAGES, type WhatsAppTemplate } from '../../../shared/api/whatsapp-templates.schema';
import { callQuery, call, queryKey } from '../../lib/call';
import { useConfirmedCall } from '../../lib/use-confirmed-call';

/** A number's templates' key, which creating, syncing, deleting and a status change reload. */
export const templatesKey = (linkId: string) => queryKey(findTemplates, { params: { id: linkId } });

/** GET /api/chatbot/whatsapp/templates/{linkId}: the number's templates and when they were last synced. */
export function useTemplates(linkId: string) {
  return useQuery({
    ...callQuery(findTemplates, { params: { id: linkId } }, 'The templates could not be loaded.'),
    enabled: linkId !== '',
  });
}

/** Asks first, then DELETE /api/chatbot/whatsapp/template/{templateId} (on Meta too for a Cloud API number). */
export function useDeleteTemplateConfirm(linkId: string): (template: Pick<WhatsAppTemplate, 'templateId' | 'name' | 'language'>) => void {
  const confirm = useConfirmedCall(templatesKey(linkId));
  return (template) =>
    confirm({
      title: `Delete ${template.name} (${template.language})`,
      question: TEMPLATE_API_MESSAGES.deleteConfirm,
      done: { title: 'Template deleted', message: TEMPLATE_API_MESSAGES.deleted },
      refused: { title: 'Template not deleted', message: 'The template could not be deleted.' },
      call: () => call(deleteTemplate, { params: { id: template.templateId } }),
    });
}
