import { Badge } from '@mantine/core';

/** Beside an entry whose screen is not built yet (built-routes.ts): it goes when the route is added. */
export function SoonBadge() {
  return (
    <Badge size="xs" variant="light" color="gray" radius="sm">
      Soon
    </Badge>
  );
}
