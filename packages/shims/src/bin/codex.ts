// Entry of the codex hook bundle: `node codex.cjs`.
import { main } from '../cli.js';

void main(['codex', ...process.argv.slice(2)]);
