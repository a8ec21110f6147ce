import { ActionIcon, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { GATEWAY_TRAFFIC_DAYS, type GatewayTraffic } from '../../../shared/api/apps.schema';
import {
  designScreenLimit,
  GATEWAY_PROFILES,
  gatewayConnectionsSchema,
  USSD_GATEWAYS,
  type GatewayConnection,
  type GatewayProfile,
  type UssdGateway,
} from '../../../shared/gateway-profiles';

/** A connection as typed: each narrower limit a number, or '' for the gateway's own; the budget in seconds. */
export interface GatewayValues {
  gateway: UssdGateway;
  screenLimit: number | string;
  budgetSeconds: number | string;
}

export function toGatewayValues(connections: readonly GatewayConnection[]): GatewayValues[] {
  return connections.map((c) => ({
    gateway: c.gateway,
    screenLimit: c.screenLimit ?? '',
    budgetSeconds: c.budgetMs === null ? '' : c.budgetMs / 1000,
  }));
}

/** What updateApp takes: an empty field is the gateway's own figure (null); seconds become milliseconds. */
export function readGatewayValues(values: readonly GatewayValues[]): GatewayConnection[] {
  return values.map((v) => ({
    gateway: v.gateway,
    screenLimit: v.screenLimit === '' ? null : Number(v.screenLimit),
    budgetMs: v.budgetSeconds === '' ? null : Math.round(Number(v.budgetSeconds) * 1000),
  }));
}

/** The connections' problems by field (`0.screenLimit`, `1.budgetMs`), with the messages the server gives. */
export function checkGatewayValues(values: readonly GatewayValues[]): Map<string, string> {
  const problems = new Map<string, string>();
  const parsed = gatewayConnectionsSchema.safeParse(readGatewayValues(values));
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.');
      if (!problems.has(field)) problems.set(field, issue.message);
    }
  return problems;
}

/** 'Nalo · 120 characters · waits 10 s' */
export function describeGatewayProfile(profile: GatewayProfile): string {
  return `${profile.label} · ${profile.screenLimit} characters · waits ${profile.budgetMs / 1000} s`;
}

/** What the designer holds menus to with these connections, in words. */
function describeDesignLimit(appScreenLimit: number, values: readonly GatewayValues[], problems: Map<string, string>): string {
  if (values.length === 0) return `Connect the gateways your provider uses: the designer then holds menus to the strictest of them.`;
  // While a narrower limit is mistyped, the line speaks of the gateways' own figures.
  const connections = readGatewayValues(values).map((c, i) => (problems.has(`${i}.screenLimit`) ? { ...c, screenLimit: null } : c));
  const { limit, gateway } = designScreenLimit(appScreenLimit, connections);
  if (!gateway) return `The designer holds menus to the app's own ${limit} characters: no connected gateway carries fewer.`;
  return `The designer holds menus to the strictest connected gateway (now: ${limit} characters, ${GATEWAY_PROFILES[gateway].label}).`;
}

/**
 * The gateways part of the settings form (docs/runtime.md, "Gateway profiles"): the gateways the app is connected
 * to, each with its profile and two optional narrower figures, and a list to connect another.
 */
export function AppGatewayFields(props: {
  values: GatewayValues[];
  appScreenLimit: number;
  /** The gateways that sent the app sessions lately (none while they load, or when they cannot be read: a hint only). */
  traffic?: readonly GatewayTraffic[];
  onChange: (values: GatewayValues[]) => void;
}) {
  const { values, onChange } = props;
  const connect = (gateway: UssdGateway) => onChange([...values, { gateway, screenLimit: '', budgetSeconds: '' }]);
  const problems = checkGatewayValues(values);
  const connected = new Set(values.map((v) => v.gateway));
  const options = USSD_GATEWAYS.filter((g) => !connected.has(g)).map((g) => ({ value: g, label: GATEWAY_PROFILES[g].label }));
  const setRow = (index: number, patch: Partial<GatewayValues>) => onChange(values.map((v, i) => (i === index ? { ...v, ...patch } : v)));

  return (
    <Stack gap="sm" role="group" aria-labelledby="gateways-heading">
      <div>
        <Text fw={600} size="sm" id="gateways-heading" component="h3" m={0}>
          Gateways
        </Text>
        <Text size="xs" c="dimmed" mt={2}>
          The USSD gateways that send this app its callers. Each passes on screens up to so many characters and waits so long for an answer;
          a session runs under its own gateway's figures. Narrow them when your contract with a gateway says less.
        </Text>
      </div>
      <Text size="sm" data-testid="gateway-design-limit">
        {describeDesignLimit(props.appScreenLimit, values, problems)}
      </Text>
      {values.map((v, index) => {
        const profile = GATEWAY_PROFILES[v.gateway];
        return (
          <Paper key={v.gateway} withBorder radius="md" p="sm" data-testid={`gateway-${v.gateway}`} aria-label={profile.label} role="group">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm">
                  {profile.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {describeGatewayProfile(profile)}
                </Text>
              </div>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Disconnect ${profile.label}`}
                onClick={() => onChange(values.filter((_, i) => i !== index))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            {problems.get(`${index}.gateway`) && (
              <Text size="xs" c="red.8" mt={4}>
                {problems.get(`${index}.gateway`)}
              </Text>
            )}
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" mt="xs">
              <NumberInput
                label="Screen limit (characters)"
                description={`Empty: ${profile.label}'s ${profile.screenLimit}`}
                placeholder={String(profile.screenLimit)}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                value={v.screenLimit}
                onChange={(screenLimit) => setRow(index, { screenLimit })}
                error={problems.get(`${index}.screenLimit`)}
                name={`gateway-${v.gateway}-screenLimit`}
              />
              <NumberInput
                label="Response budget (seconds)"
                description={`Empty: ${profile.label}'s ${profile.budgetMs / 1000} s`}
                placeholder={String(profile.budgetMs / 1000)}
                decimalScale={1}
                allowNegative={false}
                clampBehavior="none"
                value={v.budgetSeconds}
                onChange={(budgetSeconds) => setRow(index, { budgetSeconds })}
                error={problems.get(`${index}.budgetMs`)}
                name={`gateway-${v.gateway}-budget`}
              />
            </SimpleGrid>
          </Paper>
        );
      })}
      {(props.traffic ?? [])
        .filter((t) => !connected.has(t.gateway))
        .map((t) => (
          <Group key={t.gateway} gap="xs" justify="space-between" wrap="nowrap" data-testid={`gateway-traffic-${t.gateway}`}>
            <Text size="sm">
              {`${GATEWAY_PROFILES[t.gateway].label} sent this app ${t.sessions} session${t.sessions === 1 ? '' : 's'} in the last ${GATEWAY_TRAFFIC_DAYS} days but is not connected.`}
            </Text>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlugConnected size={14} />}
              onClick={() => connect(t.gateway)}
              aria-label={`Connect ${GATEWAY_PROFILES[t.gateway].label}`}
            >
              Connect
            </Button>
          </Group>
        ))}
      {options.length > 0 && (
        <Select
          label="Connect a gateway"
          placeholder="Choose a gateway"
          data={options}
          value={null}
          onChange={(gateway) => gateway && connect(gateway as UssdGateway)}
          maw={340}
          name="connectGateway"
        />
      )}
    </Stack>
  );
}
