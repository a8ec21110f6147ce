import { findFeaturedTemplates as findFeaturedTemplatesCall } from '../../../shared/api/templates.calls';
import { call } from '../../lib/call';

// The emulator's featured templates call, until the emulator calls the declaration itself (its own conversion).
export const findFeaturedTemplates = () => call(findFeaturedTemplatesCall);
