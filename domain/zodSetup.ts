import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * zod/mini ships without messages ("Invalid input"); learners read these messages, so load the
 * English ones only (not every locale). `jitless`: no `new Function` probe, so a CSP without
 * 'unsafe-eval' stays quiet. Imported by every module that declares a schema.
 */
z.config(en());
z.config({ jitless: true });
