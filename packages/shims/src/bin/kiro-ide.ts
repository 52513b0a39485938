// Entry of the kiro-ide hook bundle: `node kiro-ide.cjs [event]`.
import { main } from '../cli.js';

void main(['kiro-ide', ...process.argv.slice(2)]);
