import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { LOCATION_MESSAGES } from '../../../shared/api/bots.schema';
import type { LocationRef } from '../../../shared/media';

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
 * The location a customer shares, typed: latitude and longitude (on the globe, in the server's words when not),
 * and an optional name and address, as WhatsApp's location message carries them.
 */
export function ChatLocationDialog({ isOpen, onClose, onShare }: ChatLocationDialogProps) {
  const [fields, setFields] = useState({ latitude: '', longitude: '', name: '', address: '' });
  const [errors, setErrors] = useState<{ latitude?: string; longitude?: string }>({});
  const set = (name: keyof typeof fields) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setFields((old) => ({ ...old, [name]: value }));
    setErrors((old) => ({ ...old, [name]: undefined }));
  };

  function share() {
    const latitude = readCoordinate(fields.latitude, 90);
    const longitude = readCoordinate(fields.longitude, 180);
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
