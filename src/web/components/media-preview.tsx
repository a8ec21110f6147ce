import { Anchor, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { IconFile, IconMapPin, IconPhotoOff } from '@tabler/icons-react';
import { useState } from 'react';
import { formatBytes } from '../../shared/app/menu-media.schema';
import type { LocationRef, MediaRef } from '../../shared/media';
import { toMapUrl } from '../../shared/whatsapp';

/** What a file is called where it is shown: its name, else its kind and type (`image (image/png)`). */
export const toFileTitle = (media: MediaRef): string => media.fileName || `${media.kind} (${media.mimeType})`;

/** A file's size and type under its name: `12 KB · application/pdf`. */
export const toFileDetails = (media: MediaRef): string => `${formatBytes(media.size)} · ${media.mimeType}`;

/** `5.6037, -0.187`: a location's coordinates as shown. */
export const toCoordinates = ({ latitude, longitude }: LocationRef): string => `${latitude}, ${longitude}`;

/**
 * A stored file in a table (session logs, completed sessions): an image as a small thumbnail, any other file as a
 * chip with its name, size and type; each opens the signed link in a new tab. A file without a link (its bytes
 * deleted after the retention period) shows that it was there.
 */
export function MediaPreview({ media }: { media: MediaRef }) {
  const [isBroken, setBroken] = useState(false);
  const title = toFileTitle(media);
  if (!media.url)
    return (
      <Group gap={6} wrap="nowrap" data-testid="media-preview">
        <IconPhotoOff size={16} aria-hidden="true" />
        <Text size="sm" c="gray.7">
          {title}: no longer stored
        </Text>
      </Group>
    );
  if (media.kind === 'image' && !isBroken)
    return (
      <Anchor href={media.url} target="_blank" rel="noopener" data-testid="media-preview" aria-label={`Open the photo ${title}`}>
        <Image src={media.url} alt={media.caption || title} h={64} w={96} fit="cover" radius="sm" onError={() => setBroken(true)} />
      </Anchor>
    );
  return (
    <Paper
      component="a"
      href={media.url}
      target="_blank"
      rel="noopener"
      withBorder
      radius="md"
      px="sm"
      py={6}
      display="inline-flex"
      data-testid="media-preview"
      aria-label={`Open ${title} (${toFileDetails(media)})`}
      style={{ gap: 8, alignItems: 'center', color: 'inherit', textDecoration: 'none' }}
    >
      <IconFile size={18} aria-hidden="true" />
      <Stack gap={0}>
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <Text size="xs" c="gray.7">
          {toFileDetails(media)}
        </Text>
      </Stack>
    </Paper>
  );
}

/** A shared location in a table: a pin, its name and address, its coordinates and a link to the map. */
export function LocationPreview({ location }: { location: LocationRef }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-testid="location-preview">
      <IconMapPin size={18} aria-hidden="true" color="var(--mantine-color-red-7)" />
      <Stack gap={0}>
        {location.name && (
          <Text size="sm" fw={600}>
            {location.name}
          </Text>
        )}
        {location.address && <Text size="sm">{location.address}</Text>}
        <Text size="xs" c="gray.7">
          {toCoordinates(location)} ·{' '}
          <Anchor href={toMapUrl(location)} target="_blank" rel="noopener" size="xs">
            Open map
          </Anchor>
        </Text>
      </Stack>
    </Group>
  );
}
