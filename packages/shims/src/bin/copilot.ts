// Entry of the copilot hook bundle: `node copilot.cjs`.
import { main } from '../cli.js';

void main(['copilot', ...process.argv.slice(2)]);
