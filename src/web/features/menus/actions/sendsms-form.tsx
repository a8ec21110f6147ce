import { SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { SendsmsCode } from '../../../../shared/app';
import { errorText, type ActionCodeFormProps } from './action-code-form.types';
import { ActionMobileInput } from './action-mobile-input';

/** sendsms: queues one SMS; every field is a template, e.g. mobile `{{ session.mobile }}`. */
export function SendsmsForm({ code, onChange, errors }: ActionCodeFormProps<'sendsms'>) {
  const set = (patch: Partial<SendsmsCode>) => onChange({ ...code, ...patch });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Sender"
          description="Up to 11 characters on most networks"
          maxLength={20}
          value={code.smsSender}
          onChange={(e) => set({ smsSender: e.currentTarget.value })}
        />
        <ActionMobileInput value={code.mobile} onChange={(mobile) => set({ mobile })} errors={errors} />
      </SimpleGrid>
      <Textarea
        label="Message"
        value={code.smsMessage}
        onChange={(e) => set({ smsMessage: e.currentTarget.value })}
        error={errorText(errors, 'smsMessage')}
        withAsterisk
        autosize
        minRows={2}
      />
    </Stack>
  );
}
