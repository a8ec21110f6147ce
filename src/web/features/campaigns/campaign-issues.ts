import type { z } from 'zod';

/**
 * A schema's refusal as one message per field, by its path (`name`, `session.appId`, `template`; '' for the whole
 * body): the first issue of each, in the schema's own words (CAMPAIGN_MESSAGES), for the form to show by its field.
 */
export function readIssues(error: z.ZodError): Record<string, string> {
  const issues: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    issues[path] ??= issue.message;
  }
  return issues;
}
