import { Group, Paper, Select, Stack, TextInput } from '@mantine/core';
import { createValidationDraft, VALIDATION_METHOD_LABELS, VALIDATION_METHODS, type ValidationMethod } from '../../../shared/app';
import { nextKey, type FormErrors, type MenuFormValues, type ValidationDraft } from './menu-form-state';
import { JavascriptCodeEditor } from '../../components/javascript-code-editor';
import { MenuRowControls, moveItem, removeItem, updateItem } from './menu-row-buttons';
import { RowList } from '../../components/row-list';

interface MenuValidationTabProps {
  values: MenuFormValues;
  set: (patch: Partial<MenuFormValues>) => void;
  errors: FormErrors;
}

/** Every method with its own label (a shared label would mislabel lt and lte). */
const METHOD_OPTIONS = VALIDATION_METHODS.map((m) => ({ value: m, label: VALIDATION_METHOD_LABELS[m] }));
/** Methods that ignore the compare value. */
const WITHOUT_COMPARE: ReadonlySet<ValidationMethod> = new Set(['isAlpha', 'isNumeric', 'javascript']);
const COMPARE_PLACEHOLDERS: Partial<Record<ValidationMethod, string>> = {
  between: '1,10',
  notBetween: '1,10',
  valueIn: '1 or 1,2,3',
  valueNotIn: '1 or 1,2,3',
  regexp: '^\\d{10}$',
  notRegexp: '^0',
};
const FUNCTION_HINT = 'Sees input and session; passes when it returns a truthy value or { valid: true }';

/** Validation tab: checks on the caller's input, in order; the first failure re-shows the menu with its message. */
export function MenuValidationTab({ values, set, errors }: MenuValidationTabProps) {
  const setRow = (index: number, patch: Partial<ValidationDraft>) => set({ validations: updateItem(values.validations, index, patch) });
  const move = (index: number, by: number) => set({ validations: moveItem(values.validations, index, by) });
  const err = (field: string) => errors[field];
  return (
    <RowList
      title="Input validations"
      description="Run in order before the input is stored; the first failure shows its error message."
      addLabel="Add validation"
      onAdd={() => set({ validations: [...values.validations, { ...createValidationDraft(), key: nextKey('validation') }] })}
      emptyText="No validations: any input is accepted."
      isEmpty={values.validations.length === 0}
    >
      {values.validations.map((row, i) => {
        const at = `validations.${i}`;
        return (
          <Paper key={row.key} withBorder radius="md" p="sm" data-testid="input-validation">
            <Stack gap="xs">
              <Group gap="xs" align="flex-start" wrap="wrap">
                <Select
                  label={`${i + 1}. Method`}
                  aria-label={`Validation ${i + 1} method`}
                  data={METHOD_OPTIONS}
                  value={row.validationMethod}
                  onChange={(v) => v && setRow(i, { validationMethod: v as ValidationMethod })}
                  allowDeselect={false}
                  w={{ base: '100%', xs: 200 }}
                />
                {!WITHOUT_COMPARE.has(row.validationMethod) && (
                  <TextInput
                    label="Compare value"
                    aria-label={`Validation ${i + 1} compare value`}
                    placeholder={COMPARE_PLACEHOLDERS[row.validationMethod] ?? '10'}
                    value={row.compareValue}
                    onChange={(e) => setRow(i, { compareValue: e.currentTarget.value })}
                    error={err(`${at}.compareValue`)?.message}
                    style={{ flex: '1 1 120px' }}
                  />
                )}
                <TextInput
                  label="Error message"
                  aria-label={`Validation ${i + 1} error message`}
                  placeholder="Invalid input"
                  value={row.errorMessage}
                  onChange={(e) => setRow(i, { errorMessage: e.currentTarget.value })}
                  error={err(`${at}.errorMessage`)?.message}
                  style={{ flex: '2 1 200px' }}
                />
                <MenuRowControls
                  noun="validation"
                  index={i}
                  count={values.validations.length}
                  onMove={(by) => move(i, by)}
                  onRemove={() => set({ validations: removeItem(values.validations, i) })}
                />
              </Group>
              {row.validationMethod === 'javascript' && (
                <JavascriptCodeEditor
                  label={`Validation ${i + 1} function`}
                  description={FUNCTION_HINT}
                  value={row.validationFunction}
                  onChange={(code) => setRow(i, { validationFunction: code })}
                  error={err(`${at}.validationFunction`)}
                />
              )}
            </Stack>
          </Paper>
        );
      })}
    </RowList>
  );
}
