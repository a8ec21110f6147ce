import { Alert, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload, IconAlertTriangle } from '@tabler/icons-react';
import { saveBlob } from '../../lib/save-blob';

/** The recovery codes, shown this once: copy them all, or download them as a text file. */
export function RecoveryCodesView({ codes, email }: { codes: string[]; email: string }) {
  const text = `Dialflow recovery codes for ${email}\nEach code signs in once when your authenticator app is not at hand.\n\n${codes.join('\n')}\n`;
  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} />} title="Save these recovery codes now">
        They are shown only this once. Each one signs you in once if you lose your phone. Keep them somewhere safe, away from this device.
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} verticalSpacing={6} p="sm" bg="gray.0" style={{ borderRadius: 8 }}>
        {codes.map((code) => (
          <Text key={code} ff="monospace" size="sm" ta="center">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={() => saveBlob('dialflow-recovery-codes.txt', new Blob([text], { type: 'text/plain' }))}
        >
          Download
        </Button>
      </Group>
    </Stack>
  );
}
