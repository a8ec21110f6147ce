import type { ReactNode } from 'react';
import { Box, Container, Text, Title } from '@mantine/core';
import classes from './public.module.css';

/** The band at the top of FAQ, About, Contact and Pricing: the page's single h1 and a lead line. */
export function PublicPageHeader({ eyebrow, title, lead }: { eyebrow: string; title: string; lead: ReactNode }) {
  return (
    <Box className={classes.pageHeader}>
      <Container size="lg" py={{ base: 40, sm: 64 }}>
        <Text c="teal.9" fw={700} size="sm" tt="uppercase" style={{ letterSpacing: '0.08em' }}>
          {eyebrow}
        </Text>
        <Title order={1} mt={8} fz={{ base: 32, sm: 44 }} lh={1.1} style={{ letterSpacing: '-0.02em' }}>
          {title}
        </Title>
        <Text mt="md" size="lg" c="gray.7" maw={680}>
          {lead}
        </Text>
      </Container>
    </Box>
  );
}
