import { Alert, Select, Stack, Text } from '@mantine/core';
import { useCustomActions } from '../../custom-actions/use-custom-actions';
import { errorText, type ActionCodeFormProps } from './action-code-form.types';

/** customAction: runs one of the account's saved custom functions, picked from GET /api/custom-actions. */
export function CustomActionForm({ code, onChange, errors }: ActionCodeFormProps<'customAction'>) {
  const { data = [], error, isPending } = useCustomActions();
  if (error) {
    return (
      <Alert color="red" variant="light" title="Custom functions">
        {error.message}
      </Alert>
    );
  }
  const options = data.map((item) => ({ value: item.uuid, label: item.actionName }));
  if (code.uuid && !options.some((o) => o.value === code.uuid)) options.push({ value: code.uuid, label: code.actionName || code.uuid });
  return (
    <Stack gap={6}>
      <Select
        label="Custom function"
        placeholder={isPending ? 'Loading…' : data.length === 0 ? 'No custom functions yet' : 'Pick a function'}
        data={options}
        value={code.uuid || null}
        disabled={!isPending && options.length === 0}
        searchable
        nothingFoundMessage="No custom functions yet"
        onChange={(uuid) => {
          const item = data.find((i) => i.uuid === uuid);
          onChange({ uuid: uuid ?? '', actionName: item?.actionName ?? '', description: item?.description ?? '' });
        }}
        error={errorText(errors, 'uuid')}
      />
      {!isPending && data.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="custom-functions-empty">
          No custom functions yet
        </Text>
      )}
      {code.description && (
        <Text size="sm" c="dimmed">
          {code.description}
        </Text>
      )}
    </Stack>
  );
}
