import { Skeleton, Stack } from '@mantine/core';

/** A screen's cards while they load: one skeleton a card, `heights` in pixels, announced as `label`. */
export function CardSkeletons({ label, heights }: { label: string; heights: number[] }) {
  return (
    <Stack gap="lg" aria-busy="true" aria-label={label}>
      {heights.map((height, i) => (
        // The list is fixed for the screen, so the index is the card's place.
        <Skeleton key={i} height={height} radius="lg" />
      ))}
    </Stack>
  );
}
