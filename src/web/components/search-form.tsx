import { Paper } from '@mantine/core';
import type { ReactNode } from 'react';

interface SearchFormProps {
  /** The form's accessible name: 'Search sessions'. */
  label: string;
  /** Enter in a field or the submit button. */
  onSearch: () => void;
  children: ReactNode;
}

/** A screen's filters or search fields in their panel above the results (sessions, logs, transactions). */
export function SearchForm({ label, onSearch, children }: SearchFormProps) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      {children}
    </Paper>
  );
}
