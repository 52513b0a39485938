// Entry of the cline hook bundle: `node cline.cjs`.
import { main } from '../cli.js';

void main(['cline', ...process.argv.slice(2)]);
