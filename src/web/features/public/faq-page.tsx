import { Accordion, Anchor, Button, Container, Group, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { FAQ_ENTRIES } from './faq.data';
import { PublicPageHeader } from './public-page-header';

export function FaqPage() {
  return (
    <>
      <title>FAQ · Dialflow</title>
      <PublicPageHeader
        eyebrow="FAQ"
        title="Frequently asked questions"
        lead="Quick answers about going live, getting help, hosting, countries and payments."
      />
      <Container size="md" py={{ base: 40, sm: 64 }}>
        <Accordion variant="separated" radius="md" multiple defaultValue={['q0']} chevronPosition="right">
          {FAQ_ENTRIES.map((entry, index) => (
            <Accordion.Item key={entry.question} value={`q${index}`}>
              <Accordion.Control>
                <Text component="span" fw={600} size="lg">
                  {entry.question}
                </Text>
              </Accordion.Control>
              <Accordion.Panel>
                <Text c="gray.8" lh={1.65}>
                  {entry.answer}
                </Text>
                {entry.link && (
                  <Anchor component={Link} to={entry.link.to} c="teal.9" fw={600} mt="sm" display="inline-block">
                    {entry.link.label}
                  </Anchor>
                )}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>

        <Paper withBorder radius="lg" p="xl" mt={48} bg="gray.0">
          <Group justify="space-between" gap="md">
            <div>
              <Title order={2} fz="xl">
                Still have a question?
              </Title>
              <Text c="gray.7" mt={4}>
                Our team in Accra and Lagos answers every message.
              </Text>
            </div>
            <Button component={Link} to="/contact" color="teal.9">
              Contact us
            </Button>
          </Group>
        </Paper>
      </Container>
    </>
  );
}
