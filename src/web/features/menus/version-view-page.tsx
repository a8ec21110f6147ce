import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Table, Tabs, Text, Title, UnstyledButton } from '@mantine/core';
import { IconDeviceMobile, IconLock } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { VersionDetails } from '../../../shared/api/menus.schema';
import { OPERATOR_LABELS, VALIDATION_METHOD_LABELS, type Menu } from '../../../shared/app';
import { BackLink } from '../../components/back-link';
import { formatMoment } from '../../lib/format';
import { designerPath, versionEmulatorPath } from '../../lib/paths';
import { MenuScreenPreview, type PreviewApp } from './menu-screen-preview';
import classes from './menus.module.css';
import { useAppVersion } from './use-menus';
import { VersionDiffView } from './version-diff-view';

/**
 * One deployed version, read-only (/app/design/{appId}/versions/{n}; docs/versions.md): its menus as it runs them,
 * each with its screen and its rules, actions and validations, and what changed since the version before. Nothing
 * here edits or saves: the draft is the designer's. A screen of its own rather than a mode of the designer, so the
 * designer's form and lists stay as they are.
 */
export function VersionViewPage() {
  const { appId = '', version: versionParam = '' } = useParams();
  const version = Number(versionParam);
  const isNumber = Number.isInteger(version) && version >= 1;
  const details = useAppVersion(appId, isNumber ? version : 1, undefined, isNumber);
  const title = `Version ${versionParam} · read-only`;

  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · Dialflow`;
    return () => {
      document.title = previous;
    };
  }, [title]);

  return (
    <Stack gap="lg">
      <BackLink to={designerPath(appId)} label="Back to the designer" />
      {/* The banner only over a version there is (or may be, while it loads): a missing one gets the error alone. */}
      {!details.error && isNumber && (
        <Alert
          color="orange"
          variant="light"
          radius="md"
          icon={<IconLock size={20} />}
          title={
            <Title order={1} fz={20}>
              {title}
            </Title>
          }
          data-testid="version-banner"
        >
          <Group justify="space-between" align="flex-end" gap="sm">
            <Text size="sm">
              What this version runs, as it was deployed. Nothing here can be changed or saved: edit the draft in the designer, then deploy.
            </Text>
            {details.data && details.data.definition.channel !== 'whatsapp' && (
              <Button
                component={Link}
                to={versionEmulatorPath(appId, version)}
                variant="default"
                leftSection={<IconDeviceMobile size={18} />}
              >
                Try in emulator
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {!isNumber && <Alert color="red">There is no version {versionParam}.</Alert>}
      {isNumber && details.isPending && (
        <Stack>
          <Skeleton height={60} radius="md" />
          <Skeleton height={240} radius="md" />
        </Stack>
      )}
      {details.error && (
        <Alert color="red" title="This version could not be opened">
          {details.error.message}
        </Alert>
      )}
      {details.data && <VersionContents details={details.data} />}
    </Stack>
  );
}

function VersionContents({ details }: { details: VersionDetails }) {
  const { info, definition, diff, against } = details;
  return (
    <>
      <Paper withBorder radius="md" p="md">
        <Group gap={8}>
          <Text fw={700} data-testid="version-title">
            Version {info.version}
            {info.name ? ` · ${info.name}` : ''}
          </Text>
          {info.isLive && (
            <Badge color="teal" size="sm">
              Live
            </Badge>
          )}
          {info.rolledBackFrom !== null && (
            <Badge color="gray" variant="light" size="sm">
              Restores version {info.rolledBackFrom}
            </Badge>
          )}
        </Group>
        {info.note && (
          <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {info.note}
          </Text>
        )}
        <Text size="xs" c="dimmed" mt={4}>
          Deployed {formatMoment(info.createdAt)} by {info.createdBy || 'a deleted user'} · {definition.menus.length} menu
          {definition.menus.length === 1 ? '' : 's'}
        </Text>
      </Paper>
      <Tabs defaultValue="menus" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="menus">Menus</Tabs.Tab>
          <Tabs.Tab value="changes">{against ? `Changes since version ${against}` : 'Changes (first version)'}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="menus" pt="md">
          <VersionMenus details={details} />
        </Tabs.Panel>
        <Tabs.Panel value="changes" pt="md">
          <VersionDiffView diff={diff} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/** The designer's two columns, read-only: the menus on the left, the chosen one's screen and settings on the right. */
function VersionMenus({ details }: { details: VersionDetails }) {
  const { definition } = details;
  const [openId, setOpenId] = useState(definition.menus[0]?.uniqueId ?? null);
  const open = definition.menus.find((m) => m.uniqueId === openId);
  const previewApp: PreviewApp = { ...definition, menus: definition.menus };
  if (definition.menus.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        This version has no menus.
      </Text>
    );
  }
  return (
    <div className={classes.layout}>
      <Stack gap={6} data-testid="version-menu-list">
        {definition.menus.map((menu) => (
          <UnstyledButton
            key={menu.uniqueId}
            className={classes.versionCard}
            data-active={menu.uniqueId === openId || undefined}
            aria-pressed={menu.uniqueId === openId}
            onClick={() => setOpenId(menu.uniqueId)}
          >
            <Text fw={600} ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {menu.userDefinedName}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={2}>
              {menu.displayText}
            </Text>
          </UnstyledButton>
        ))}
      </Stack>
      {open && (
        <Paper withBorder radius="md" p="md" data-testid="version-menu" data-menu={open.userDefinedName}>
          <Title order={2} fz={18} ff="monospace" mb="sm">
            {open.userDefinedName}
          </Title>
          <div className={classes.versionMenu}>
            <MenuFacts menu={open} menus={definition.menus} />
            <MenuScreenPreview app={previewApp} menu={open} />
          </div>
        </Paper>
      )}
    </div>
  );
}

/** A menu's fields as text: what the designer's tabs would show, with nothing to edit. */
function MenuFacts({ menu, menus }: { menu: Menu; menus: Menu[] }) {
  const nameOf = (id: string) => menus.find((m) => m.uniqueId === id)?.userDefinedName ?? 'a menu no longer in this version';
  const rows: Array<[string, string]> = [
    ['Header', menu.headerText],
    ['Menu text', menu.displayText],
    ['Footer', menu.footerText],
    ...Object.entries(menu.translations ?? {}).map(([code, t]): [string, string] => [`Menu text (${code})`, t.displayText ?? '']),
    ['Ends the session', menu.terminate ? 'Yes' : 'No'],
    ['Back menu', menu.allowGoBack ? `Yes, on ${menu.goBackInputIndicator}` : 'No'],
    ...menu.switchOperations.map((rule, i): [string, string] => [
      `Rule ${i + 1}`,
      `${OPERATOR_LABELS[rule.operator]}${rule.compareVal ? ` ${rule.compareVal}` : ''} → ${
        rule.action === 'goto' ? `go to ${nameOf(rule.actionParam)}` : 'end the session'
      }`,
    ]),
    ...menu.inputValidations.map((v, i): [string, string] => [
      `Validation ${i + 1}`,
      `${VALIDATION_METHOD_LABELS[v.validationMethod]}${v.errorMessage ? `: ${v.errorMessage}` : ''}`,
    ]),
    ...menu.actions.map((a, i): [string, string] => [`Action ${i + 1}`, `${a.actionName} (${a.inheritsPlugin}, ${a.actionType})`]),
  ];
  return (
    <Table withRowBorders verticalSpacing={6} data-testid="version-menu-facts">
      <Table.Tbody>
        {rows
          .filter(([, value]) => value !== '')
          .map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" w={140} style={{ verticalAlign: 'top' }}>
                {label}
              </Table.Th>
              <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
      </Table.Tbody>
    </Table>
  );
}
