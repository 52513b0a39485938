// Entry of the windsurf hook bundle: `node windsurf.cjs`.
import { main } from '../cli.js';

void main(['windsurf', ...process.argv.slice(2)]);
