import { VisuallyHidden } from '@mantine/core';
import type { TemplateParts } from '../../../shared/whatsapp-templates';
import classes from './chat.module.css';

/**
 * A template as WhatsApp draws it on the customer's phone: one message from the business with its header in bold,
 * the body, the footer in grey, and its quick-reply buttons under it.
 */
export function TemplatePreview({ parts, label = 'Preview' }: { parts: TemplateParts; label?: string }) {
  return (
    <section className={classes.preview} aria-label={label} data-testid="template-preview">
      <div className={`${classes.row} ${classes.rowOut}`}>
        <div className={`${classes.bubble} ${classes.bubbleOut}`}>
          <VisuallyHidden>Message from the business: </VisuallyHidden>
          {parts.header && <p className={`${classes.bubbleText} ${classes.templateHeader}`}>{parts.header}</p>}
          <p className={classes.bubbleText}>{parts.body || ' '}</p>
          {parts.footer && <p className={`${classes.bubbleText} ${classes.templateFooter}`}>{parts.footer}</p>}
        </div>
        {parts.buttons.length > 0 && (
          <div className={classes.replyButtons}>
            {parts.buttons.map((title, i) => (
              <button key={i} type="button" className={classes.replyButton} disabled>
                {title || ' '}
              </button>
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
