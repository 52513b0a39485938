// Entry of the opencode hook bundle: `node opencode.cjs`.
import { main } from '../cli.js';

void main(['opencode', ...process.argv.slice(2)]);
