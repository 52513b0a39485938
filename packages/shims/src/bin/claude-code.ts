// Entry of the claude-code hook bundle: `node claude-code.cjs [event]`.
import { main } from '../cli.js';

void main(['claude-code', ...process.argv.slice(2)]);
