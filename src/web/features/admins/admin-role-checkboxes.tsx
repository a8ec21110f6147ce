import { Checkbox, SimpleGrid } from '@mantine/core';
import { ADMIN_ROLE_LABELS, type AdminRoleType } from '../../../shared/api/admins.schema';

interface AdminRoleCheckboxesProps {
  roles: readonly string[];
  value: string[];
  onChange: (value: string[]) => void;
  error?: string | null;
}

/** The role choices of Create Admin and Manage Admin, each with what it allows. */
export function AdminRoleCheckboxes({ roles, value, onChange, error }: AdminRoleCheckboxesProps) {
  return (
    <Checkbox.Group label="Roles" withAsterisk value={value} onChange={onChange} error={error}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
        {roles.map((role) => {
          const text = ADMIN_ROLE_LABELS[role as AdminRoleType];
          return <Checkbox key={role} value={role} label={text?.label ?? role} description={text?.description} />;
        })}
      </SimpleGrid>
    </Checkbox.Group>
  );
}
