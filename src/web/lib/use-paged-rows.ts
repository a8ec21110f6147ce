import { useEffect, useState } from 'react';

export const PAGE_SIZE = 10;

/** One page of rows, and the page number kept within range when the rows change (a new search, cleared logs). */
export function usePagedRows<T>(rows: T[], pageSize = PAGE_SIZE) {
  const [page, setPage] = useState(1);
  const total = Math.max(1, Math.ceil(rows.length / pageSize));
  useEffect(() => {
    if (page > total) setPage(total);
  }, [page, total]);
  const current = Math.min(page, total);
  const pageStart = (current - 1) * pageSize;
  return { page: current, setPage, total, pageStart, pageRows: rows.slice(pageStart, pageStart + pageSize) };
}
