import { Stack, Tabs } from '@mantine/core';
import { IconAdjustments, IconBrandWhatsapp } from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router';
import { BotScreenHeader } from './bot-screen-header';
import { BotSettingsPanel } from './bot-settings-form';
import { LinkedNumberPanel } from './linked-number-panel';

type SettingsTab = 'numbers' | 'settings';

/** Bot Settings (/whatsapp-bot/settings/{appId}): tabs Connected Numbers and Bot Settings (`?tab=settings` opens the second). */
export function BotSettingsPage() {
  const { appId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: SettingsTab = searchParams.get('tab') === 'settings' ? 'settings' : 'numbers';
  return (
    <Stack gap="xl">
      <title>Bot Settings · Dialflow</title>
      <BotScreenHeader appId={appId} screen="Bot Settings" />
      <Tabs
        value={tab}
        onChange={(value) => setSearchParams(value === 'settings' ? { tab: 'settings' } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List aria-label="Bot Settings">
          <Tabs.Tab value="numbers" leftSection={<IconBrandWhatsapp size={16} />}>
            Connected Numbers
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconAdjustments size={16} />}>
            Bot Settings
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="numbers" pt="lg">
          <LinkedNumberPanel appId={appId} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="lg">
          <BotSettingsPanel appId={appId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
