import { ActionIcon, Button, Checkbox, Group, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { CONTENT_TYPES, HTTP_METHODS, type RestapiCode } from '../../../../shared/app';
import { removeItem, updateItem } from '../menu-row-buttons';
import { errorText, type ActionCodeFormProps } from './action-code-form.types';
import { TemplateTextarea, TemplateTextInput } from '../template-text-input';

/**
 * restapi: one HTTP call. URL, headers and body are templates (`{{ session.inputs.amount }}`); a JSON body may
 * hold template expressions where values go. The result is `actions.<name>` (status and parsed body).
 */
export function RestapiForm({ code, onChange, errors }: ActionCodeFormProps<'restapi'>) {
  const set = (patch: Partial<RestapiCode>) => onChange({ ...code, ...patch });
  const setHeader = (index: number, patch: Partial<RestapiCode['headers'][number]>) =>
    set({ headers: updateItem(code.headers, index, patch) });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Select
          label="Method"
          data={[...HTTP_METHODS]}
          value={code.method || null}
          onChange={(v) => set({ method: (v ?? '') as RestapiCode['method'] })}
          error={errorText(errors, 'method')}
          allowDeselect={false}
        />
        <Select
          label="Content type"
          data={[...CONTENT_TYPES]}
          value={code.contentType}
          onChange={(v) => v && set({ contentType: v as RestapiCode['contentType'] })}
          allowDeselect={false}
          style={{ gridColumn: 'span 2' }}
        />
      </SimpleGrid>
      <TemplateTextInput
        label="Request URL"
        placeholder="https://api.example.com/pay"
        value={code.url}
        onChange={(url) => set({ url })}
        error={errorText(errors, 'url')}
        withAsterisk
      />
      <TemplateTextarea
        label="Request body"
        description={code.method === 'GET' ? 'Not sent with GET' : 'Template values allowed, e.g. {"amount": {{ session.inputs.amount }}}'}
        placeholder={code.contentType === 'application/json' ? '{ "amount": {{ session.inputs.amount }} }' : ''}
        value={code.payload}
        onChange={(payload) => set({ payload })}
        error={errorText(errors, 'payload')}
        autosize
        minRows={3}
        maxRows={12}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
      />
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            Headers
          </Text>
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconPlus size={12} />}
            onClick={() => set({ headers: [...code.headers, { key: '', value: '' }] })}
          >
            Add header
          </Button>
        </Group>
        {code.headers.length === 0 && (
          <Text size="xs" c="dimmed">
            No headers.
          </Text>
        )}
        {code.headers.map((header, i) => (
          <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
            <TextInput
              aria-label={`Header ${i + 1} name`}
              placeholder="Name"
              value={header.key}
              onChange={(e) => setHeader(i, { key: e.currentTarget.value })}
              style={{ flex: 1 }}
            />
            <TemplateTextInput
              aria-label={`Header ${i + 1} value`}
              placeholder="Value"
              value={header.value}
              onChange={(value) => setHeader(i, { value })}
              style={{ flex: 2 }}
            />
            <Tooltip label="Remove header">
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove header ${i + 1}`}
                onClick={() => set({ headers: removeItem(code.headers, i) })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
      </Stack>
      <Checkbox
        label="Basic authentication"
        checked={code.basicAuth !== null}
        onChange={(e) => set({ basicAuth: e.currentTarget.checked ? { username: '', password: '' } : null })}
      />
      {code.basicAuth && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Username"
            value={code.basicAuth.username}
            onChange={(e) => set({ basicAuth: { ...code.basicAuth!, username: e.currentTarget.value } })}
          />
          <PasswordInput
            label="Password"
            value={code.basicAuth.password}
            onChange={(e) => set({ basicAuth: { ...code.basicAuth!, password: e.currentTarget.value } })}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}
