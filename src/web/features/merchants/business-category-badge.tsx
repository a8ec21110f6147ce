import { Badge, type MantineSpacing } from '@mantine/core';

/** A merchant's business category, as the merchant tables and the profile show it. */
export function BusinessCategoryBadge({ category, mt }: { category: string; mt?: MantineSpacing | number }) {
  return (
    <Badge variant="light" color="gray" tt="capitalize" mt={mt}>
      {category}
    </Badge>
  );
}
