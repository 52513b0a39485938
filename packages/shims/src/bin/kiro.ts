// Entry of the kiro hook bundle: `node kiro.cjs [event]`.
import { main } from '../cli.js';

void main(['kiro', ...process.argv.slice(2)]);
