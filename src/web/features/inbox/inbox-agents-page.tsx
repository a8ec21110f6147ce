import { Badge, Button, Grid, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createInboxAgent, deleteInboxAgent } from '../../../shared/api/inbox.calls';
import { createInboxAgentBodySchema, type InboxAgent } from '../../../shared/api/inbox.schema';
import { BackLink } from '../../components/back-link';
import { FormAlert } from '../../components/form-alert';
import { ListSection } from '../../components/list-section';
import { ListTable } from '../../components/list-table';
import { PageHeader } from '../../components/page-header';
import { RoleGuard } from '../../components/role-guard';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { showToast } from '../../lib/toast';
import { useAccountDeleteConfirm } from '../../lib/use-confirmed-call';
import { INBOX_KEY, INBOX_PATH, inboxAgentsQuery } from './inbox.api';

/**
 * Agents (docs/inbox.md, "Agents"): the account's owner adds the people who answer its inbox (a name, an email, a
 * first password the owner gives them) and removes them; an agent signs in and sees the Inbox only.
 */
export function InboxAgentsPage() {
  return (
    <RoleGuard audience="everyone" redirectTo={INBOX_PATH}>
      <Stack gap="xl">
        <div>
          <BackLink to={INBOX_PATH} label="Inbox" />
          <PageHeader
            title="Agents"
            description="The people who answer your inbox. Each signs in with their own email and sees the Inbox and their own profile, nothing else of your account. Who assigned and closed a conversation is written in it."
          />
        </div>
        <Grid gap="lg" align="flex-start">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <AgentCreateForm />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <AgentList />
          </Grid.Col>
        </Grid>
      </Stack>
    </RoleGuard>
  );
}

function AgentCreateForm() {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: { fullName: '', email: '', password: '' } });

  const handleSubmit = form.onSubmit(async (values) => {
    const parsed = createInboxAgentBodySchema.safeParse(values);
    if (!parsed.success) return setMessage(parsed.error.issues[0]?.message ?? null);
    setMessage(null);
    setSubmitting(true);
    const created = await call(createInboxAgent, { body: parsed.data });
    setSubmitting(false);
    if (!isOk(created) || !created.data) return setMessage(failureText(created, 'The agent could not be added.'));
    await queryClient.invalidateQueries({ queryKey: INBOX_KEY });
    form.reset();
    showToast({
      color: 'teal',
      title: 'Agent added',
      message: `${created.data.fullName} can sign in now with ${created.data.email} and the password you chose. We mailed them where to sign in.`,
    });
  });

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="agent-create-heading">
      <Title order={2} fz="lg" id="agent-create-heading" mb="md">
        Add an agent
      </Title>
      <form onSubmit={handleSubmit} noValidate aria-label="Add an agent">
        <Stack gap="md">
          <FormAlert message={message} onClose={() => setMessage(null)} />
          <TextInput label="Full name" autoComplete="off" {...form.getInputProps('fullName')} />
          <TextInput label="Email" type="email" autoComplete="off" {...form.getInputProps('email')} />
          <div>
            <PasswordInput
              label="First password"
              autoComplete="new-password"
              aria-describedby="agent-password-help"
              {...form.getInputProps('password')}
            />
            <Text size="xs" c="dimmed" mt={4} id="agent-password-help">
              Tell them yourself (it is not mailed); they choose their own under Account Settings.
            </Text>
          </div>
          <Button type="submit" loading={isSubmitting} leftSection={<IconUserPlus size={16} />} w="fit-content">
            Add agent
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function AgentList() {
  const agents = useQuery(inboxAgentsQuery());
  const confirmRemove = useAccountDeleteConfirm(INBOX_KEY, 'agent', (uuid) => call(deleteInboxAgent, { params: { agentId: uuid } }));
  return (
    <ListSection query={agents} loadingLabel="Loading agents" errorTitle="Agents not loaded" errorTestId="agents-error" empty={null}>
      {(rows: InboxAgent[]) => (
        <Stack gap="xs">
          <ListTable
            rows={rows}
            label="Agents"
            testId="agent-list"
            getRowKey={(agent) => agent.userId}
            getRowMark={(agent) => agent.email}
            columns={[
              {
                header: 'Agent',
                render: (agent) => (
                  <>
                    <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {agent.fullName}{' '}
                      {agent.isOwner && (
                        <Badge size="sm" variant="light" ml={4}>
                          Owner
                        </Badge>
                      )}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {agent.email}
                    </Text>
                  </>
                ),
              },
              {
                header: '',
                align: 'right',
                render: (agent) =>
                  !agent.isOwner && (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} />}
                      aria-label={`Remove ${agent.fullName}`}
                      onClick={() => confirmRemove({ uuid: agent.userId, fullName: agent.fullName, email: agent.email })}
                    >
                      Remove
                    </Button>
                  ),
              },
            ]}
          />
          <Text size="xs" c="dimmed">
            Removing an agent signs them out at once and hands their open conversations back to nobody (Unassigned).
          </Text>
        </Stack>
      )}
    </ListSection>
  );
}
