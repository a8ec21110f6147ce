import { SimpleGrid, Stack } from '@mantine/core';
import type { SendsmsCode } from '../../../../shared/app';
import { errorText, type ActionCodeFormProps } from './action-code-form.types';
import { ActionMobileInput } from './action-mobile-input';
import { TemplateTextarea, TemplateTextInput } from '../template-text-input';

/** sendsms: queues one SMS; every field is a template, e.g. mobile `{{ session.mobile }}`. */
export function SendsmsForm({ code, onChange, errors }: ActionCodeFormProps<'sendsms'>) {
  const set = (patch: Partial<SendsmsCode>) => onChange({ ...code, ...patch });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TemplateTextInput
          label="Sender"
          description="Up to 11 characters on most networks"
          maxLength={20}
          value={code.smsSender}
          onChange={(smsSender) => set({ smsSender })}
        />
        <ActionMobileInput value={code.mobile} onChange={(mobile) => set({ mobile })} errors={errors} />
      </SimpleGrid>
      <TemplateTextarea
        label="Message"
        value={code.smsMessage}
        onChange={(smsMessage) => set({ smsMessage })}
        error={errorText(errors, 'smsMessage')}
        withAsterisk
        autosize
        minRows={2}
      />
    </Stack>
  );
}
