import type { ReactNode } from 'react';
import { ListSkeleton } from './list-states';
import { LoadErrorAlert } from './load-error-alert';

/** What a list's query hook answers (TanStack Query's fields): its rows once loaded, or why not. */
export interface ListQuery<T> {
  data: T[] | undefined;
  error: Error | null;
  isPending: boolean;
  refetch: () => unknown;
}

interface ListSectionProps<T> {
  query: ListQuery<T>;
  /** Announced while the list loads: 'Loading admins'. */
  loadingLabel: string;
  /** What was not loaded: 'Admins not loaded'. */
  errorTitle: string;
  errorTestId?: string;
  /** Shown for a list without rows: an EmptyPanel that says how to add the first. */
  empty: ReactNode;
  /** The list once it has rows, usually a ListTable. */
  children: (rows: T[]) => ReactNode;
}

/**
 * A list screen's body under its PageHeader: placeholder rows while it loads, the reason and Try again when it
 * could not, the empty panel, or the list.
 */
export function ListSection<T>({ query, loadingLabel, errorTitle, errorTestId, empty, children }: ListSectionProps<T>) {
  const { data: rows, error, isPending, refetch } = query;
  return (
    <>
      {isPending && <ListSkeleton label={loadingLabel} />}
      {error && <LoadErrorAlert testId={errorTestId} title={errorTitle} message={error.message} onRetry={() => void refetch()} />}
      {rows?.length === 0 && empty}
      {rows && rows.length > 0 && children(rows)}
    </>
  );
}
