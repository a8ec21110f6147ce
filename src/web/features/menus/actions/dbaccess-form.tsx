import { PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { DB_DIALECTS, type DbaccessCode } from '../../../../shared/app';
import { errorText, type ActionCodeFormProps } from './action-code-form.types';
import { TemplateTextarea } from '../template-text-input';

const DIALECT_LABELS: Record<DbaccessCode['dialect'], string> = { postgres: 'PostgreSQL', mysql: 'MySQL', mssql: 'SQL Server' };

/** dbaccess: one query on the builder's database; `{{ ... }}` in the query become bind parameters, never text. */
export function DbaccessForm({ code, onChange, errors }: ActionCodeFormProps<'dbaccess'>) {
  const set = (patch: Partial<DbaccessCode>) => onChange({ ...code, ...patch });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="Dialect"
          data={DB_DIALECTS.map((d) => ({ value: d, label: DIALECT_LABELS[d] }))}
          value={code.dialect}
          onChange={(v) => v && set({ dialect: v as DbaccessCode['dialect'] })}
          allowDeselect={false}
        />
        <TextInput
          label="Database URL"
          placeholder="db.example.com:5432"
          value={code.dburl}
          onChange={(e) => set({ dburl: e.currentTarget.value })}
          error={errorText(errors, 'dburl')}
          withAsterisk
        />
        <TextInput label="Database name" value={code.dbName} onChange={(e) => set({ dbName: e.currentTarget.value })} />
        <TextInput label="User" value={code.dbuser} onChange={(e) => set({ dbuser: e.currentTarget.value })} autoComplete="off" />
        <PasswordInput
          label="Password"
          value={code.dbpass}
          onChange={(e) => set({ dbpass: e.currentTarget.value })}
          autoComplete="new-password"
        />
        <Switch
          label="Secure connection (TLS)"
          checked={code.secureConnection}
          onChange={(e) => set({ secureConnection: e.currentTarget.checked })}
          mt={{ sm: 30 }}
        />
      </SimpleGrid>
      <TemplateTextarea
        label="Query"
        placeholder="select name from customers where msisdn = {{ session.mobile }}"
        value={code.query}
        onChange={(query) => set({ query })}
        error={errorText(errors, 'query')}
        withAsterisk
        autosize
        minRows={3}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
      />
    </Stack>
  );
}
