import { SimpleGrid } from '@mantine/core';
import type { PaymentpromptCode } from '../../../../shared/app';
import { errorText, type ActionCodeFormProps } from './action-code-form.types';
import { ActionMobileInput } from './action-mobile-input';
import { TemplateTextInput } from '../template-text-input';

/** paymentprompt: starts a mobile-money charge on the caller's phone; every field is a template. */
export function PaymentpromptForm({ code, onChange, errors }: ActionCodeFormProps<'paymentprompt'>) {
  const set = (patch: Partial<PaymentpromptCode>) => onChange({ ...code, ...patch });
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
      <ActionMobileInput value={code.mobile} onChange={(mobile) => set({ mobile })} errors={errors} />
      <TemplateTextInput
        label="Amount"
        placeholder="{{ session.inputs.amount }}"
        value={code.amount}
        onChange={(amount) => set({ amount })}
        error={errorText(errors, 'amount')}
        withAsterisk
      />
      <TemplateTextInput
        label="Network"
        placeholder="{{ session.network }}"
        value={code.network}
        onChange={(network) => set({ network })}
      />
    </SimpleGrid>
  );
}
