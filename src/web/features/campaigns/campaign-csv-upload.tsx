import { Anchor } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createAudience } from '../../../shared/api/campaigns.calls';
import type { Audience } from '../../../shared/api/campaigns.schema';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { showToast } from '../../lib/toast';
import { ContactImportDialog } from '../contacts/contact-import-dialog';
import { AUDIENCES_KEY, listTagOf } from './campaigns.api';

/** The audience of exactly one tag (`list=spring-offers`): no other condition. */
const isTagAudience = (audience: Audience, tag: string) =>
  Object.keys(audience.filter).length === 1 && audience.filter.attribute?.length === 1 && audience.filter.attribute[0] === tag;

/** The file's name without `.csv`, as a new audience's name (with its tag when another audience has the name). */
function audienceNameOf(fileName: string, tag: string, audiences: Audience[]): string {
  const name =
    fileName
      .replace(/\.csv$/i, '')
      .trim()
      .slice(0, 80) || tag;
  return audiences.some((a) => a.name === name) ? `${name.slice(0, 60)} (${tag})`.slice(0, 80) : name;
}

interface CampaignCsvUploadProps {
  audiences: Audience[];
  /** The audience of the file's contacts, made (or found, for a file imported before) once the import is done. */
  onAudience: (audienceId: string) => void;
  onRefusal: (message: string) => void;
}

/**
 * Upload a CSV (docs/campaigns.md, "A CSV for one campaign"): the contacts import, every contact of the file tagged
 * `list=<the file's name>`; once it is done, the audience of that attribute, named after the file, is chosen.
 */
export function CampaignCsvUpload({ audiences, onAudience, onRefusal }: CampaignCsvUploadProps) {
  const queryClient = useQueryClient();
  const [isOpen, setOpen] = useState(false);

  async function chooseFileAudience(fileName: string) {
    const tag = listTagOf(fileName);
    const known = audiences.find((a) => isTagAudience(a, tag));
    if (known) return onAudience(known.audienceId);
    const reply = await call(createAudience, {
      body: { name: audienceNameOf(fileName, tag, audiences), filter: { attribute: [tag] } },
    });
    if (!isOk(reply) || !reply.data)
      return onRefusal(failureText(reply, "The file's contacts are imported, but their audience could not be saved."));
    showToast({ color: 'teal', title: 'Audience saved', message: `${reply.data.name}: the contacts of ${fileName}.` });
    await queryClient.invalidateQueries({ queryKey: AUDIENCES_KEY });
    onAudience(reply.data.audienceId);
  }

  return (
    <>
      <Anchor component="button" type="button" size="xs" onClick={() => setOpen(true)}>
        Upload a CSV
      </Anchor>
      <ContactImportDialog
        opened={isOpen}
        onClose={() => setOpen(false)}
        tagFor={listTagOf}
        onImported={({ fileName }) => void chooseFileAudience(fileName)}
      />
    </>
  );
}
