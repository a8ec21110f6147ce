import { Link } from 'react-router';
import { IconAsterisk } from '@tabler/icons-react';
import classes from './public.module.css';

/** The Dialflow logo: a mark (the USSD star) and the name, linking home. */
export function PublicBrandLink({ light = false, onClick }: { light?: boolean; onClick?: () => void }) {
  return (
    <Link to="/" className={light ? `${classes.brand} ${classes.brandLight}` : classes.brand} aria-label="Dialflow home" onClick={onClick}>
      <span className={classes.brandMark} aria-hidden="true">
        <IconAsterisk size={18} stroke={3} />
      </span>
      <span>Dialflow</span>
    </Link>
  );
}
