// Entry of the gemini-cli hook bundle: `node gemini-cli.cjs`.
import { main } from '../cli.js';

void main(['gemini-cli', ...process.argv.slice(2)]);
