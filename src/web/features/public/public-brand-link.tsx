import { Link } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import classes from './public.module.css';

/** The Dialflow logo linking home: the console's mark and wordmark (white on the dark footer). */
export function PublicBrandLink({ light = false, onClick }: { light?: boolean; onClick?: () => void }) {
  return (
    <Link to="/" className={classes.brand} aria-label="Dialflow home" onClick={onClick}>
      <BrandLogo size={32} inverted={light} />
    </Link>
  );
}
