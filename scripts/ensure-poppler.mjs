// Makes sure Poppler's pdftotext and pdftoppm are present: the report tests read the PDFs with them.
import { ensureDebianPackage } from './lib/ensure-debian-package.mjs';

ensureDebianPackage({
  label: 'Poppler',
  tools: ['pdftotext', 'pdftoppm'],
  packages: ['poppler-utils'],
  why: 'Les tests des rapports HACCP en ont besoin pour lire les PDF.',
});
