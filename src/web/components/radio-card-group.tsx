import { Group, Radio, SimpleGrid, Text } from '@mantine/core';

export interface RadioCardOption<T extends string> {
  value: T;
  title: string;
  /** One line under the title: what choosing it means. */
  text: string;
}

interface RadioCardGroupProps<T extends string> {
  label: string;
  description?: string;
  /** The field's name in the form. */
  name: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly RadioCardOption<T>[];
}

/** A choice between a few options shown as cards side by side (stacked on a phone), each with a line that explains it. */
export function RadioCardGroup<T extends string>({ label, description, name, value, onChange, options }: RadioCardGroupProps<T>) {
  return (
    <Radio.Group label={label} description={description} value={value} onChange={(next) => onChange(next as T)} name={name}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
        {options.map((option) => (
          <Radio.Card key={option.value} value={option.value} radius="md" p="md" aria-label={option.title}>
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator mt={2} />
              <div>
                <Text fw={600} size="sm">
                  {option.title}
                </Text>
                <Text size="xs" c="dimmed" mt={2}>
                  {option.text}
                </Text>
              </div>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
