import { Code, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  buildExample,
  createShortcodeBodySchema,
  EXT_LENGTH_MAX,
  EXTENSION_DIGITS_MAX,
  findExtensionProblem,
  SHORTCODE_COUNTRIES,
  SHORTCODE_METHODS,
  SHORTCODE_PROVIDER_CHOICES,
  toProviderId,
} from '../../../shared/api/shortcodes.schema';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { createExtension } from '../../../shared/api/shortcodes.calls';
import { call } from '../../lib/call';
import { SHORTCODES_KEY } from './use-shortcodes';
import { useProviders } from './use-shortcodes';
import { DialogActions } from '../../components/dialog-actions';

interface ExtensionValues {
  country: string;
  provider: string;
  otherprovider: string;
  shortCode: string;
  extension: string;
  extLength: number;
  method: string;
  price: string;
  currency: string;
}

const INITIAL_VALUES: ExtensionValues = {
  country: '',
  provider: '',
  otherprovider: '',
  shortCode: '*920*',
  extension: '',
  extLength: 0,
  method: '',
  price: '',
  currency: '',
};

const PROVIDER_LABELS: Record<(typeof SHORTCODE_PROVIDER_CHOICES)[number], string> = {
  mtngh: 'MTN Ghana (mtngh)',
  airtelgh: 'AirtelTigo Ghana (airtelgh)',
  vodagh: 'Vodafone Ghana (vodagh)',
  other: 'Other',
};

const currencyOf = (country: string) => SHORTCODE_COUNTRIES.find((c) => c.name === country)?.currency ?? '';

/**
 * The provider choices: the three networks, the providers registered since (so an extension can name the one
 * its traffic comes through), then Other with a name.
 */
function useProviderOptions() {
  const { data: providers = [] } = useProviders();
  const fixed = SHORTCODE_PROVIDER_CHOICES.filter((choice) => choice !== 'other');
  const registered = providers
    .filter((provider) => !(SHORTCODE_PROVIDER_CHOICES as readonly string[]).includes(provider.providerId))
    .map((provider) => ({ value: provider.providerId, label: `${provider.providerName} (${provider.providerId})` }));
  return [
    ...fixed.map((value) => ({ value, label: PROVIDER_LABELS[value] })),
    ...registered,
    { value: 'other', label: PROVIDER_LABELS.other },
  ];
}

interface ShortcodeExtensionCreateDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** 'New Extension': a dial string on a provider, in a country, with its HTTP method and price per month. */
export function ShortcodeExtensionCreateDialog({ opened, onClose }: ShortcodeExtensionCreateDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="New Extension" centered size="lg">
      <ExtensionForm onClose={onClose} />
    </Modal>
  );
}

function ExtensionForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const providerOptions = useProviderOptions();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm<ExtensionValues>({
    mode: 'controlled',
    initialValues: INITIAL_VALUES,
    // The server's rules, in the form's order: the first problem shows at its field.
    validate: (values) => {
      const problem = findExtensionProblem(createShortcodeBodySchema.parse(values));
      return problem ? { [problem.field]: problem.message } : {};
    },
  });
  const { values } = form;
  const example = values.shortCode ? buildExample(values) : '';
  const otherId = values.provider === 'other' ? toProviderId(values.otherprovider) : '';

  const handleSubmit = form.onSubmit(async (submitted) => {
    setSubmitting(true);
    const body = createShortcodeBodySchema.parse(submitted);
    const reply = await call(createExtension, { body: { ...body, method: body.method.toUpperCase() } });
    setSubmitting(false);
    if (!isOk(reply)) {
      setMessage(failureText(reply, 'The extension could not be created.'));
      return;
    }
    showToast({ color: 'teal', title: 'Extension created', message: reply.message || `${example} is in the catalogue.` });
    await queryClient.invalidateQueries({ queryKey: SHORTCODES_KEY });
    onClose();
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="New Extension">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label="Country"
            placeholder="Select a country"
            withAsterisk
            data={SHORTCODE_COUNTRIES.map((c) => c.name)}
            data-autofocus
            {...form.getInputProps('country')}
            onChange={(country) => {
              form.setFieldValue('country', country ?? '');
              form.setFieldValue('currency', currencyOf(country ?? ''));
            }}
          />
          <Select
            label="Provider"
            placeholder="Select shortcode provider"
            withAsterisk
            data={providerOptions}
            {...form.getInputProps('provider')}
            onChange={(provider) => form.setFieldValue('provider', provider ?? '')}
          />
        </SimpleGrid>
        {values.provider === 'other' && (
          <TextInput
            label="Other Provider Name"
            placeholder="e.g. Hubtel Ghana"
            description={otherId ? `Provider Id: ${otherId}` : 'Its Provider Id is made from the name.'}
            withAsterisk
            maxLength={120}
            {...form.getInputProps('otherprovider')}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <TextInput
            label="Shortcode"
            description="Digits between stars"
            placeholder="*920*"
            withAsterisk
            maxLength={20}
            {...form.getInputProps('shortCode')}
          />
          <TextInput
            label="Extension"
            description="Its own digits"
            placeholder="e.g. 34"
            inputMode="numeric"
            maxLength={EXTENSION_DIGITS_MAX}
            {...form.getInputProps('extension')}
          />
          <NumberInput
            label="Digits the buyer chooses"
            description="0: none, fixed"
            min={0}
            max={EXT_LENGTH_MAX}
            clampBehavior="strict"
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('extLength')}
            onChange={(value) => form.setFieldValue('extLength', typeof value === 'number' ? value : 0)}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Select
            label="Http Method"
            placeholder="Select http method"
            withAsterisk
            data={[...SHORTCODE_METHODS]}
            {...form.getInputProps('method')}
            onChange={(method) => form.setFieldValue('method', method ?? '')}
          />
          <TextInput
            label="Price per month"
            placeholder="e.g. 150"
            inputMode="decimal"
            withAsterisk
            maxLength={12}
            {...form.getInputProps('price')}
          />
          <Select
            label="Currency"
            placeholder="The country's"
            data={SHORTCODE_COUNTRIES.map((c) => c.currency)}
            {...form.getInputProps('currency')}
            onChange={(currency) => form.setFieldValue('currency', currency ?? '')}
          />
        </SimpleGrid>
        {example && (
          <Text size="sm">
            Callers dial <Code data-testid="extension-example">{example}</Code>
            {values.extLength > 0 && ` (the buyer chooses the last ${values.extLength} digits)`}
          </Text>
        )}
        <DialogActions submitLabel="Save Extension" onCancel={onClose} isSubmitting={isSubmitting} mt="xs" />
      </Stack>
    </form>
  );
}
