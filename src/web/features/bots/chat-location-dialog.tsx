import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { LOCATION_MESSAGES } from '../../../shared/api/bots.schema';
import { getMapTiles } from '../../../shared/api/media.calls';
import type { LocationRef } from '../../../shared/media';
import { callQuery } from '../../lib/call';
import type { MapPoint } from './chat-location-map';
import classes from './chat.module.css';

// Leaflet is loaded when a form with a map first opens, never with the page.
const ChatLocationMap = lazy(() => import('./chat-location-map'));

interface ChatLocationDialogProps {
  isOpen: boolean;
  onClose: () => void;
  onShare: (location: LocationRef) => void;
}

/** A coordinate as typed (`5.6037`, `-0.187`): a number within ±`bound`, else null. */
function readCoordinate(value: string, bound: number): number | null {
  const number = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(number) && Math.abs(number) <= bound ? number : null;
}

/**
 * The location a customer shares: latitude and longitude (on the globe, in the server's words when not), and an
 * optional name and address, as WhatsApp's location message carries them. Where the server names a tile source
 * (MAP_TILE_URL), a map sets the coordinates too: a click or the dragged pin fills the fields, and coordinates typed
 * move the pin. The fields stay the way in for keyboards; without a tile source the form is typed alone.
 */
export function ChatLocationDialog({ isOpen, onClose, onShare }: ChatLocationDialogProps) {
  const [fields, setFields] = useState({ latitude: '', longitude: '', name: '', address: '' });
  const [errors, setErrors] = useState<{ latitude?: string; longitude?: string }>({});
  const tiles = useQuery({
    ...callQuery(getMapTiles, {}, 'The map could not be loaded.'),
    staleTime: Number.POSITIVE_INFINITY,
    enabled: isOpen,
  });
  const tileUrl = tiles.data?.tileUrl ?? '';
  const latitude = readCoordinate(fields.latitude, 90);
  const longitude = readCoordinate(fields.longitude, 180);
  const point: MapPoint | null = latitude !== null && longitude !== null ? { latitude, longitude } : null;
  function pick(picked: MapPoint) {
    setFields((old) => ({ ...old, latitude: String(picked.latitude), longitude: String(picked.longitude) }));
    setErrors({});
  }
  const set = (name: keyof typeof fields) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setFields((old) => ({ ...old, [name]: value }));
    setErrors((old) => ({ ...old, [name]: undefined }));
  };

  function share() {
    if (latitude === null || longitude === null) {
      setErrors({
        ...(latitude === null ? { latitude: LOCATION_MESSAGES.latitude } : {}),
        ...(longitude === null ? { longitude: LOCATION_MESSAGES.longitude } : {}),
      });
      return;
    }
    const name = fields.name.trim();
    const address = fields.address.trim();
    onShare({ latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) });
    setFields({ latitude: '', longitude: '', name: '', address: '' });
    onClose();
  }

  return (
    <Modal opened={isOpen} onClose={onClose} title="Share location" centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          share();
        }}
      >
        <Stack gap="sm">
          {tileUrl && (
            <Stack gap={4}>
              <Text size="sm" c="dimmed">
                Click the map or drag the pin, or type the coordinates.
              </Text>
              <Suspense fallback={<div className={classes.map} />}>
                <ChatLocationMap tileUrl={tileUrl} attribution={tiles.data?.attribution ?? ''} point={point} onPick={pick} />
              </Suspense>
            </Stack>
          )}
          <Group grow align="flex-start">
            <TextInput
              label="Latitude"
              placeholder="5.6037"
              inputMode="decimal"
              required
              value={fields.latitude}
              error={errors.latitude}
              onChange={set('latitude')}
              data-autofocus
            />
            <TextInput
              label="Longitude"
              placeholder="-0.187"
              inputMode="decimal"
              required
              value={fields.longitude}
              error={errors.longitude}
              onChange={set('longitude')}
            />
          </Group>
          <TextInput label="Name" placeholder="Osu branch" maxLength={1000} value={fields.name} onChange={set('name')} />
          <TextInput label="Address" placeholder="Oxford Street, Accra" maxLength={1000} value={fields.address} onChange={set('address')} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="teal.9">
              Share
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
