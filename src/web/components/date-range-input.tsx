import '@mantine/dates/styles.css';
import type { StyleProp } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';

interface DateRangeInputProps {
  value: DatesRangeValue<string>;
  onChange: (value: DatesRangeValue<string>) => void;
  error?: string | null;
  /** The clear button's accessible name, where a test or a screen reader needs one. */
  clearLabel?: string;
  w?: StyleProp<number | string>;
}

/** 'Date range': the first and last day of a search, one day allowed, cleared with its ×. */
export function DateRangeInput({ value, onChange, error, clearLabel, w }: DateRangeInputProps) {
  return (
    <DatePickerInput
      type="range"
      label="Date range"
      placeholder="Pick the first and last day"
      value={value}
      onChange={onChange}
      leftSection={<IconCalendar size={16} />}
      valueFormat="D MMM YYYY"
      clearable
      clearButtonProps={clearLabel ? { 'aria-label': clearLabel } : undefined}
      allowSingleDateInRange
      error={error}
      w={w}
    />
  );
}
