// Entry of the augment hook bundle: `node augment.cjs`.
import { main } from '../cli.js';

void main(['augment', ...process.argv.slice(2)]);
