// Entry of the cursor hook bundle: `node cursor.cjs`.
import { main } from '../cli.js';

void main(['cursor', ...process.argv.slice(2)]);
